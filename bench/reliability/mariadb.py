"""A private MariaDB server (own datadir, port and socket) that the campaign may restart
without disturbing the shared one."""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import MySQLdb

from tests.processes import free_port

START_TIMEOUT = 60.0


class PrivateMariaDB:
    def __init__(self, root: Path | None = None) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="campaign-mariadb-"))
        self.datadir = self.root / "data"
        self.port = free_port()
        self.popen: subprocess.Popen | None = None

    def install(self) -> PrivateMariaDB:
        subprocess.run(
            [
                "mariadb-install-db",
                f"--datadir={self.datadir}",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
                "--user=root",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        return self

    def start(self) -> None:
        log = open(self.root / "mariadbd.log", "ab")  # noqa: SIM115 - the child owns it
        self.popen = subprocess.Popen(
            ["mariadbd", *self.server_options()], stdout=log, stderr=subprocess.STDOUT
        )
        self._wait_ready()

    def server_options(self) -> list[str]:
        return [
            "--no-defaults",
            f"--datadir={self.datadir}",
            f"--port={self.port}",
            "--bind-address=127.0.0.1",
            f"--socket={self.root / 'mariadbd.sock'}",
            f"--pid-file={self.root / 'mariadbd.pid'}",
            "--user=root",
            # Root over TCP without a password, as on the shared server.
            "--skip-grant-tables",
            "--innodb-buffer-pool-size=512M",
            "--max-connections=500",
        ]

    def stop(self, timeout: float = 60) -> None:
        """A clean shutdown (SIGTERM), as an operator's restart does."""
        if self.popen is None or self.popen.poll() is not None:
            return
        self.popen.send_signal(signal.SIGTERM)
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def connect(self) -> MySQLdb.Connection:
        return MySQLdb.connect(host="127.0.0.1", port=self.port, user="root", connect_timeout=2)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"mariadbd exited; see {self.root / 'mariadbd.log'}")
            try:
                self.connect().close()
                return
            except MySQLdb.Error:
                time.sleep(0.2)
        raise RuntimeError(f"mariadbd did not answer in {START_TIMEOUT}s")
