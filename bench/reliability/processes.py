"""The product's processes as the campaign runs them: each a real `manage.py` command (or
gunicorn) reaching MariaDB through the harness's TCP proxy, its output in a log file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import requests

from bench.reliability.mariadb import PrivateMariaDB
from tests.processes import ROOT, free_port, wait_until
from tests.tcp_proxy import TcpProxy

# Leases expire sooner than with the product's default margin (30 s), so that a fault's
# jobs come back within the scenario; succeeded jobs are archived after a minute.
CAMPAIGN_ENV = {"LEASE_MARGIN_SECONDS": "5", "ARCHIVE_SUCCEEDED_AFTER_SECONDS": "60"}


@dataclass
class Settings:
    """What every process of one scenario shares."""

    database: str  # name of the scenario's database
    db_port: int  # the real server's port; processes use the proxy in front of it
    logs: Path
    env: dict[str, str] = field(default_factory=lambda: dict(CAMPAIGN_ENV))
    server: PrivateMariaDB | None = None  # set when the campaign may restart the server


# The line each process logs once its loop runs (a process is ready when it appears).
READY_MARKERS = {
    "run_scheduler": " tick ",
    "run_executor": "executor claimed=",
    "run_reconciler": "reconcile returned=",
    "run_archiver": "archive written=",
}


class Process:
    def __init__(self, name: str, command: list[str], env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.ready_marker = next((m for c, m in READY_MARKERS.items() if c in command), None)
        self.log_path = logs / f"{name}.log"
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in _reap()
        self.popen = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def signal(self, signum: int) -> None:
        if self.alive:
            self.popen.send_signal(signum)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        self._reap(10)

    def stop(self, timeout: float = 60) -> int | None:
        """SIGTERM (after SIGCONT, should it be paused); SIGKILL if it does not stop."""
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        try:
            self._reap(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
        return self.popen.returncode

    def _reap(self, timeout: float) -> None:
        self.popen.wait(timeout=timeout)
        self._log.close()


class Stack:
    """Everything one scenario runs, stopped together at the end (also on Ctrl-C)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.proxy = TcpProxy("127.0.0.1", settings.db_port)
        self.processes: dict[str, Process] = {}
        self.killed: set[str] = set()  # killed on purpose: no clean exit expected
        self.api_url = ""

    def env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        url = f"mysql://root:@127.0.0.1:{self.proxy.port}/{self.settings.database}"
        env = dict(os.environ, DATABASE_URL=url, PYTHONUNBUFFERED="1", LOG_LEVEL="INFO")
        env.update({"EGRESS_ALLOW": "127.0.0.0/8", **self.settings.env, **(extra or {})})
        return env

    def start(self, name: str, command: list[str], extra: dict[str, str] | None = None) -> Process:
        process = Process(name, command, self.env(extra), self.settings.logs)
        self.processes[name] = process
        return process

    def manage(self, name: str, *args: str, extra: dict[str, str] | None = None) -> Process:
        return self.start(name, [sys.executable, "manage.py", *args], extra)

    def scheduler(self, name: str = "scheduler", *, batch: int = 1000) -> Process:
        args = ["run_scheduler", "--node-id", name, "--batch-size", str(batch)]
        return self.manage(name, *args)

    def executor(
        self, name: str, *, concurrency: int = 300, grace: float = 10, horizon: float = 5
    ) -> Process:
        args = ["run_executor", "--worker-id", name, "--concurrency", str(concurrency)]
        args += ["--horizon", str(horizon)]
        return self.manage(name, *args, "--poll-interval", "0.5", "--grace", str(grace))

    def reconciler(self) -> Process:
        return self.manage("reconciler", "run_reconciler", "--interval", "1")

    def archiver(self, name: str = "archiver") -> Process:
        return self.manage(name, "run_archiver", "--interval", "2")

    def api(self) -> str:
        """gunicorn behind nginx (scripts/run_nginx.sh), as the service is deployed."""
        upstream, listen = free_port(), free_port()
        gunicorn = [sys.executable, "-m", "gunicorn", "scheduler_site.wsgi"]
        gunicorn += ["-c", "scheduler_site/gunicorn.conf.py", "--workers", "2"]
        # Two workers share the creation rate through Redis (gunicorn refuses them without).
        cache = {"CACHE_URL": os.environ.get("CACHE_URL") or "redis://127.0.0.1:6379/12"}
        self.start("gunicorn", [*gunicorn, "--bind", f"127.0.0.1:{upstream}"], cache)
        script = str(ROOT / "scripts" / "run_nginx.sh")
        prefix = str(self.settings.logs / "api-nginx")
        self.start("api-nginx", [script, f"127.0.0.1:{listen}", f"127.0.0.1:{upstream}", prefix])
        self.api_url = f"http://127.0.0.1:{listen}"
        wait_until(self._api_answers, timeout=60, message="the API did not start")
        return self.api_url

    def _api_answers(self) -> bool:
        try:
            return requests.get(f"{self.api_url}/healthz", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    def wait_ready(self, timeout: float = 90) -> None:
        """Until every process's loop runs, so that no scenario starts before them."""
        for process in self.processes.values():
            if process.ready_marker:
                wait_until(
                    lambda p=process: p.ready_marker in p.log() or not p.alive,
                    timeout=timeout,
                    message=f"{process.name} did not start: {process.log_path}",
                    interval=0.2,
                )
                if not process.alive:
                    raise RuntimeError(f"{process.name} exited: {process.log_path}")

    def kill(self, name: str) -> None:
        self.killed.add(name)
        self.processes[name].kill()

    def stop_all(self) -> dict[str, int | None]:
        """Stop every process still running; the exit codes, by name."""
        codes = {}
        for name, process in reversed(list(self.processes.items())):
            codes[name] = process.stop() if process.alive else process.popen.returncode
        self.proxy.close()
        return codes
