"""What the image holds: an unprivileged user, no compiler, and of the checkout only what the
.dockerignore sends (no repository, no run/ folder, no tests or benchmarks)."""

import json
import subprocess

from tests.image.podman import IMAGE, run_once

# Run inside the image: what a compiler, the checkout's excluded folders and the dev
# packages would leave behind.
PROBE = """
import glob, importlib.util, json, os, shutil
print(json.dumps({
    "compilers": [c for c in ("gcc", "cc", "c++", "g++", "clang", "tcc") if shutil.which(c)]
        + glob.glob("/usr/bin/*-gcc*") + glob.glob("/usr/lib/gcc/*/*/cc1"),
    "present": [p for p in (".git", "run", "tests", "bench") if os.path.lexists("/app/" + p)],
    "importable": [m for m in ("tests", "bench", "pytest") if importlib.util.find_spec(m)],
    "files": sorted(
        os.path.relpath(os.path.join(folder, name), "/app")
        for folder, dirs, names in os.walk("/app")
        for name in names
        if "__pycache__" not in folder and not folder.startswith("/app/staticfiles")
    ),
}))
"""


def probe(env_file) -> dict:
    done = run_once(["python", "-c", PROBE], env_file)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_image_runs_as_an_unprivileged_user(image, env_file):
    configured = subprocess.run(
        ["podman", "image", "inspect", "--format", "{{.Config.User}}", IMAGE],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert configured.stdout.strip() == "scheduler"
    ids = run_once(["id", "-u"], env_file)
    assert ids.stdout.strip() == "10001", ids.stderr


def test_the_image_holds_no_compiler(env_file):
    assert probe(env_file)["compilers"] == []


def test_the_image_holds_no_repository_run_folder_tests_or_benchmarks(env_file):
    found = probe(env_file)
    assert found["present"] == [] and found["importable"] == []


def test_the_image_holds_of_the_checkout_exactly_what_the_dockerignore_sends(image, env_file):
    # Built files (compiled bytecode, collected static files) are the image's own.
    assert set(probe(env_file)["files"]) == image.sent
