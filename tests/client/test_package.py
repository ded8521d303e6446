"""client/ is a package pip installs: typed, with its `atcron` console script, and with
dependencies pinned as the service pins them (one venv holds both)."""

import re
import shutil
import subprocess
import sys
import tomllib

from tests.processes import ROOT

CLIENT = ROOT / "client"


def pip(*args: str, cwd=None) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--quiet", *args], capture_output=True, timeout=300, cwd=cwd
    )
    assert result.returncode == 0, result.stderr.decode()


def test_pip_installs_the_typed_package_and_its_console_script(tmp_path):
    # Built from a copy: a build leaves build/ and egg-info behind in the folder it reads.
    source = shutil.copytree(CLIENT, tmp_path / "client", ignore=shutil.ignore_patterns("build"))
    pip("wheel", "--no-deps", str(source), "--wheel-dir", str(tmp_path / "wheels"))
    (wheel,) = (tmp_path / "wheels").glob("atcron-*.whl")
    site = tmp_path / "site"
    pip("install", "--no-deps", "--no-index", "--target", str(site), str(wheel))
    assert (site / "atcron" / "py.typed").exists()
    result = subprocess.run(
        [str(site / "bin" / "atcron"), "--version"],
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        cwd=tmp_path,
    )
    assert result.stdout.decode().strip() == "atcron 0.1.0", result.stderr.decode()


def test_the_clients_dependencies_are_pinned_as_the_service_pins_them():
    project = tomllib.loads((CLIENT / "pyproject.toml").read_text())["project"]
    pins = set(re.findall(r"^[\w.\-]+==[\w.]+", (ROOT / "requirements.txt").read_text(), re.M))
    pins |= set(re.findall(r"^[\w.\-]+==[\w.]+", (ROOT / "requirements-dev.txt").read_text(), re.M))
    assert project["dependencies"] and set(project["dependencies"]) <= pins


def test_the_package_version_is_the_one_pip_sees():
    from atcron import __version__

    project = tomllib.loads((CLIENT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__
