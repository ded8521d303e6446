"""podman for the image tests: the build (scripts/build_image.sh on the local debootstrap
base) and containers run as this VM allows them (runc, bounded ulimits), on the host's
network so that they reach the host's MariaDB and the test's endpoints on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
IMAGE = "localhost/at-cron-scheduler:test"
BASE_IMAGE = "localhost/scheduler-base:bookworm"
RUN_OPTIONS = [
    "--runtime", "/usr/sbin/runc",
    "--ulimit", "nofile=1024:4096", "--ulimit", "nproc=4096:4096",
    "--network", "host",
]  # fmt: skip
LABEL = "scheduler-image-test"
# The label's value is the test session's pid: podman's storage is shared by every checkout
# on the machine, and a session removes only its own containers and those of sessions gone.
OWNER = f"{LABEL}={os.getpid()}"


def require_podman() -> None:
    if shutil.which("podman") is None or not os.path.exists("/usr/sbin/runc"):
        pytest.fail("podman or runc is missing: run scripts/ensure_podman.sh", pytrace=False)


def build_image(log_path: Path) -> float:
    """Build IMAGE as `make image` does, on the local base; the seconds it took."""
    env = dict(os.environ, IMAGE=IMAGE, BASE_IMAGE=BASE_IMAGE)
    started = time.monotonic()
    with open(log_path, "wb") as log:
        done = subprocess.run(
            [str(ROOT / "scripts/build_image.sh")], cwd=ROOT, env=env, stdout=log,
            stderr=subprocess.STDOUT, timeout=1800,
        )  # fmt: skip
    if done.returncode != 0:
        tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-30:])
        raise AssertionError(f"scripts/build_image.sh failed ({done.returncode}):\n{tail}")
    return time.monotonic() - started


def run_once(
    args: list[str], env_file: Path, *, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """A command in a throwaway container of IMAGE; its output as text."""
    extra = [f"--env={key}={value}" for key, value in (env or {}).items()]
    return subprocess.run(
        ["podman", "run", "--rm", "--label", OWNER, *RUN_OPTIONS, "--env-file", str(env_file),
         *extra, IMAGE, *args],
        capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


def remove_leftovers() -> None:
    """Every container this session or a session no longer running started and did not
    remove (a run cut short); another live session's containers stay."""
    listed = subprocess.run(
        ["podman", "ps", "-a", "--filter", f"label={LABEL}",
         "--format", f'{{{{.ID}}}} {{{{index .Labels "{LABEL}"}}}}'],
        capture_output=True, text=True,
    )  # fmt: skip
    ids = [
        line.split()[0]
        for line in listed.stdout.splitlines()
        if line.strip() and not owner_alive(line.split()[1:])
    ]
    if ids:
        subprocess.run(["podman", "rm", "-f", "-t", "2", *ids], capture_output=True)


def owner_alive(value: list[str]) -> bool:
    """Whether the label names another test session that still runs."""
    if not value or not value[0].isdigit() or int(value[0]) == os.getpid():
        return False
    try:
        os.kill(int(value[0]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
