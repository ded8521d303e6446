"""A MariaDB primary and its semi-synchronous replica: two `mariadbd` of Debian's package,
each with its own data folder and port, GTID replication between them, and the promotion
of the replica once the primary is gone.

    python -m bench.reliability.mariadb_pair     # start a pair, print its state, stop it

AFTER_SYNC: the primary answers a commit only once the replica has the transaction in its
relay log, so whatever a process was told is committed survives the primary's death. The
replica is not a semi-sync primary itself: promoted, it runs alone and must not wait for
an acknowledgement nobody can send.
"""

from __future__ import annotations

import shutil
import signal
import socket
import tempfile
import time
from pathlib import Path

from bench.reliability.mariadb import PrivateMariaDB

# An hour: the primary never gives up on its replica (and falls back to asynchronous
# replication, where a commit can be lost) during a run.
SEMI_SYNC_TIMEOUT_MS = 3_600_000
CATCH_UP_SECONDS = 60


class PairMember(PrivateMariaDB):
    """One of the two servers: the private server with replication options added."""

    def __init__(self, root: Path, port: int | None, server_id: int, options: list[str]) -> None:
        super().__init__(root)
        # A free port unless told: two runs on one machine (or a leftover server of a run
        # that crashed) must not take each other's server for their own.
        self.port = port or self.port
        self.options = [f"--server-id={server_id}", "--log-bin=binlog", *options]

    def server_options(self) -> list[str]:
        return [*super().server_options(), *self.options]

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a machine that dies."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait()


class MariaDBPair:
    def __init__(self, root: Path | None = None, ports: tuple[int, int] | None = None) -> None:
        self.root = root or Path(tempfile.mkdtemp(prefix="failover-mariadb-"))
        primary_port, replica_port = ports or (None, None)
        self.primary = PairMember(
            self.root / "primary",
            primary_port,
            1,
            [
                "--rpl-semi-sync-master-enabled=ON",
                "--rpl-semi-sync-master-wait-point=AFTER_SYNC",
                f"--rpl-semi-sync-master-timeout={SEMI_SYNC_TIMEOUT_MS}",
            ],
        )
        self.replica = PairMember(
            self.root / "replica",
            replica_port,
            2,
            ["--rpl-semi-sync-slave-enabled=ON", "--read-only=ON", "--log-slave-updates=ON"],
        )

    def start(self) -> MariaDBPair:
        """Both servers, replicating; on any failure neither is left running, so a run
        that failed to start leaves nothing behind for the next one."""
        try:
            self._start()
        except BaseException:
            self.remove()
            raise
        return self

    def _start(self) -> None:
        for member in (self.primary, self.replica):
            if port_answers(member.port):
                # Else the readiness wait would take a leftover server for the new one.
                raise RuntimeError(f"port {member.port} is taken: a mariadbd left running?")
            member.root.mkdir(parents=True, exist_ok=True)
            member.install().start()
        replica = self.replica.connect()
        replica.cursor().execute(
            f"CHANGE MASTER TO master_host='127.0.0.1', master_port={self.primary.port},"
            " master_user='root', master_use_gtid=slave_pos, master_connect_retry=1"
        )
        replica.cursor().execute("START SLAVE")
        replica.close()
        self._wait_semi_sync_clients()

    def promote(self) -> dict:
        """The replica becomes the primary once it applied all it received: the relay log
        holds every transaction the primary acknowledged. What it did, for the report."""
        started = time.monotonic()
        conn = self.replica.connect()
        cursor = conn.cursor()
        cursor.execute("STOP SLAVE IO_THREAD")
        received = slave_status(cursor)["Gtid_IO_Pos"]
        cursor.execute("SELECT MASTER_GTID_WAIT(%s, %s)", (received, CATCH_UP_SECONDS))
        if cursor.fetchone()[0] != 0:
            raise RuntimeError(f"the replica did not apply {received} in {CATCH_UP_SECONDS}s")
        for statement in ("STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF"):
            cursor.execute(statement)
        conn.close()
        return {"received_gtid": received, "promotion_s": round(time.monotonic() - started, 3)}

    def semi_sync_status(self) -> dict[str, str]:
        """The primary's semi-sync counters: status ON and no_tx 0 mean no commit went
        out asynchronously."""
        conn = self.primary.connect()
        cursor = conn.cursor()
        cursor.execute("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_%'")
        status = {name: value for name, value in cursor.fetchall()}
        conn.close()
        return status

    def remove(self) -> None:
        for member in (self.replica, self.primary):
            member.remove()
        shutil.rmtree(self.root, ignore_errors=True)

    def _wait_semi_sync_clients(self) -> None:
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while time.monotonic() < deadline:
            status = self.semi_sync_status()
            if status.get("Rpl_semi_sync_master_clients") == "1":
                return
            time.sleep(0.2)
        raise RuntimeError(f"the replica never connected as semi-sync: {status}")


def port_answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def slave_status(cursor) -> dict:
    cursor.execute("SHOW SLAVE STATUS")
    names = [column[0] for column in cursor.description]
    row = cursor.fetchone()
    return dict(zip(names, row, strict=True)) if row else {}


if __name__ == "__main__":
    pair = MariaDBPair().start()
    try:
        print(f"primary :{pair.primary.port}  replica :{pair.replica.port}")
        print(pair.semi_sync_status())
    finally:
        pair.remove()
