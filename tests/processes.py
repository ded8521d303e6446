"""Starting the real processes (management commands) against the test database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import requests
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"mysql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT'] or 3306}/{db['NAME']}"


class ManagedProcess:
    """One `manage.py` command running in its own process, its output in a log file."""

    def __init__(
        self, args: list[str], log_path: Path, env: dict | None = None, module: str | None = None
    ) -> None:
        self.log_path = log_path
        full_env = dict(os.environ, DATABASE_URL=test_database_url(), PYTHONUNBUFFERED="1")
        full_env.update(env or {})
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        program = ["-m", module] if module else ["manage.py"]
        self.popen = subprocess.Popen(
            [sys.executable, *program, *args],
            cwd=ROOT,
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=10)
        self._log.close()

    def stop(self, timeout: float = 20) -> int:
        self.ask_to_stop()
        return self.wait_stopped(timeout)

    def ask_to_stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)

    def wait_stopped(self, timeout: float = 20) -> int:
        """The exit code once the process ends (it is killed, and this fails, after
        `timeout`); one SIGTERM only: a second ends a stopping process at once."""
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            stacks = thread_stacks(self.popen.pid)  # where it hangs, before it is killed
            self.popen.kill()
            self.popen.wait()
            tail = "\n".join(self.log().splitlines()[-15:])
            message = f"{self.log_path.name} did not stop in {timeout}s; its log ends:\n{tail}"
            raise AssertionError(f"{message}\nits threads:\n{stacks}") from exc
        self._log.close()
        return self.popen.returncode


def thread_stacks(pid: int) -> str:
    """Every thread's Python stack of a live process (py-spy, from requirements-dev.txt)."""
    spy = Path(sys.executable).with_name("py-spy")
    try:
        dump = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"(py-spy dump failed: {exc})"
    return (dump.stdout + dump.stderr).decode(errors="replace")


def stop_all(processes: list[ManagedProcess], timeout: float = 20) -> None:
    """Stop every process (all signalled first, so they stop together), then fail for any
    that did not exit cleanly: one stuck process must not leave the others running into
    the next test."""
    for process in processes:
        process.ask_to_stop()
    failures = []
    for process in processes:
        try:
            code = process.wait_stopped(timeout)
        except AssertionError as exc:
            failures.append(str(exc))
            continue
        if code != 0:
            failures.append(f"{process.log_path.name} exited {code}; its log:\n{process.log()}")
    assert not failures, "\n\n".join(failures)


class ApiServer(ManagedProcess):
    """The API under real gunicorn on a free port of 127.0.0.1, on the test database."""

    def __init__(self, log_path: Path, *, workers: int = 2, env: dict | None = None) -> None:
        self.port = free_port()
        args = ["scheduler_site.wsgi", "-c", "scheduler_site/gunicorn.conf.py"]
        args += ["--bind", f"127.0.0.1:{self.port}", "--workers", str(workers)]
        super().__init__(args, log_path, env=env, module="gunicorn")
        wait_until(self._answers, timeout=30, message=f"gunicorn did not start: {log_path}")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _answers(self) -> bool:
        assert self.popen.poll() is None, self.log()
        try:
            requests.get(self.url("/healthz"), timeout=1)
        except (requests.ConnectionError, requests.Timeout):
            return False  # not listening yet, or still loading the app on a busy machine
        return True


def wait_until(
    predicate: Callable[[], bool], *, timeout: float, message: str, interval: float = 0.1
) -> float:
    """Poll until the predicate holds; return the seconds it took."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s: {message}")
