"""The Cassandra cluster of scripts/ensure_cassandra_cluster.sh as the cluster tests drive
it: its nodes' addresses, a node killed with SIGKILL, the missing nodes started again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.processes import ROOT

SCRIPT = "scripts/ensure_cassandra_cluster.sh"
NODES = 3


class Cluster:
    def __init__(self, first: str, port: int) -> None:
        prefix, last = first.rsplit(".", 1)
        self.hosts = [f"{prefix}.{int(last) + n}" for n in range(NODES)]
        self.port = port

    def contact_points(self) -> str:
        return ",".join(self.hosts)

    def answering(self) -> list[str]:
        return [host for host in self.hosts if _answers(host, self.port)]

    def kill(self, node: int) -> None:
        """SIGKILL node `node` (1 .. 3): no drain, no flush, as a machine lost."""
        pid_file = Path(ROOT, "run", "services", f"cassandra-{self.hosts[node - 1]}.pid")
        pid = int(pid_file.read_text())
        os.kill(pid, signal.SIGKILL)
        _wait_gone(pid)

    def seen_down(self, node: int) -> bool:
        """Whether node 1's failure detector has convicted node `node` (DN in its ring)."""
        env = dict(os.environ, CASSANDRA_CLUSTER_FIRST=self.hosts[0])
        result = subprocess.run(
            ["bash", SCRIPT, str(NODES), "status"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return any(
            line.startswith("DN ") and f" {self.hosts[node - 1]} " in f"{line} "
            for line in result.stdout.splitlines()
        )

    def restore(self) -> None:
        """Start every node that is down on its own folder, and wait until all are UN."""
        env = dict(os.environ, CASSANDRA_CLUSTER_FIRST=self.hosts[0])
        result = subprocess.run(
            ["bash", SCRIPT, str(NODES)], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, f"{SCRIPT} failed:\n{result.stdout}\n{result.stderr}"


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return False
    return True


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    raise AssertionError(f"Cassandra node pid {pid} survived SIGKILL")
