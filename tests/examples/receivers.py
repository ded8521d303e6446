"""The example receivers run as real processes: the Python one as it is, the TypeScript one
compiled by the typescript pinned in examples/package.json (installed once, outside the
repository, in ~/.cache/scheduler-receiver-ts)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import requests

from tests.processes import ROOT, free_port, wait_until

EXAMPLES = ROOT / "examples"
TS_CACHE = Path.home() / ".cache" / "scheduler-receiver-ts"


class Receiver:
    def __init__(self, command: list[str], secret: str, log_path: Path) -> None:
        self.port = free_port()
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.log_path = log_path
        env = dict(os.environ, WEBHOOK_SECRET=secret)
        self.popen = subprocess.Popen(
            [*command, str(self.port)], env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        wait_until(self._answers, timeout=30, message=f"the receiver did not start: {log_path}")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _answers(self) -> bool:
        assert self.popen.poll() is None, self.log_path.read_text()
        try:
            requests.get(self.url("/"), timeout=1)
        except requests.RequestException:
            return False
        return True

    def stop(self) -> None:
        self.popen.terminate()
        self.popen.wait(timeout=10)
        self._log.close()


def python_receiver(secret: str, tmp_path: Path) -> Receiver:
    command = [sys.executable, str(EXAMPLES / "receiver.py")]
    return Receiver(command, secret, tmp_path / "receiver-py.log")


def typescript_receiver(secret: str, tmp_path: Path) -> Receiver:
    build = tmp_path / "ts"
    build.mkdir()
    for name in ("receiver.ts", "tsconfig.json"):
        shutil.copy(EXAMPLES / name, build / name)
    (build / "node_modules").symlink_to(ts_tools())
    subprocess.run([str(build / "node_modules/.bin/tsc"), "-p", "."], cwd=build, check=True)
    command = ["node", str(build / "build" / "receiver.js")]
    return Receiver(command, secret, tmp_path / "receiver-ts.log")


def ts_tools() -> Path:
    """node_modules of the pinned lock file, installed again only when the lock changes."""
    lock = (EXAMPLES / "package-lock.json").read_bytes()
    cached_lock = TS_CACHE / "package-lock.json"
    if not (cached_lock.exists() and cached_lock.read_bytes() == lock):
        TS_CACHE.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(EXAMPLES / name, TS_CACHE / name)
        command = ["npm", "ci", "--no-audit", "--no-fund", "--loglevel", "error"]
        subprocess.run(command, cwd=TS_CACHE, check=True)
    return TS_CACHE / "node_modules"
