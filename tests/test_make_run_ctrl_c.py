"""`make run` stops on Ctrl-C without a traceback from any of its processes.

A terminal's Ctrl-C sends SIGINT to its whole foreground process group: the launcher is
started in a session of its own and the group is signalled, as the terminal would."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.processes import ROOT, free_port, wait_until


class MakeRun:
    """scripts/run_embedded.py on an SQLite database and a folder of its own."""

    def __init__(self, folder: Path, **extra_env: str) -> None:
        self.folder = folder
        env = dict(
            os.environ,
            RUN_DIR=str(folder),
            PORT=str(free_port()),
            DEMO_PORT=str(free_port()),
            DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
            # Free ones: the defaults (PORT + 20 and + 21) may be taken on a busy machine.
            METRICS_PORT=str(free_port()),
            API_METRICS_PORT=str(free_port()),
        )
        env.update(extra_env)
        self._output = open(folder / "make-run.out", "wb")  # noqa: SIM115 - closed in ctrl_c
        self.popen = subprocess.Popen(
            [sys.executable, "scripts/run_embedded.py"],
            cwd=ROOT,
            env=env,
            stdout=self._output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return (self.folder / "make-run.out").read_text(errors="replace")

    def ctrl_c(self) -> int:
        os.killpg(self.popen.pid, signal.SIGINT)
        code = self.popen.wait(timeout=60)
        self._output.close()
        return code

    def tracebacks(self) -> dict[str, int]:
        logs = {path.name: path.read_text(errors="replace") for path in self.folder.glob("*.log")}
        logs["make-run.out"] = self.output()
        return {name: text.count("Traceback") for name, text in logs.items() if "Traceback" in text}


def test_ctrl_c_once_running_stops_every_process_without_a_traceback(tmp_path):
    run = MakeRun(tmp_path)
    wait_until(lambda: "Press Ctrl-C" in run.output(), timeout=90, message=run.output())
    assert run.ctrl_c() == 0
    assert run.output().rstrip().endswith("stopped")
    assert run.tracebacks() == {}


def test_ctrl_c_while_starting_stops_every_process_without_a_traceback(tmp_path):
    run = MakeRun(tmp_path)
    # The log files appear as the processes are started, well before the API answers.
    wait_until(lambda: (tmp_path / "api.log").exists(), timeout=90, message=run.output())
    run.ctrl_c()
    assert run.tracebacks() == {}


def test_the_demo_endpoint_stops_on_ctrl_c_without_a_traceback(tmp_path):
    port = free_port()
    endpoint = subprocess.Popen(
        [sys.executable, "scripts/demo_endpoint.py", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    wait_until(lambda: _answers(port), timeout=20, message="the demo endpoint did not start")
    endpoint.send_signal(signal.SIGINT)
    output, _ = endpoint.communicate(timeout=20)
    assert endpoint.returncode == 0 and b"Traceback" not in output


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
