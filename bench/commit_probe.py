"""The durable commit floor of DATABASE_URL's server (SCALING.md, "where the single primary
stops"): single-row autocommit inserts, one commit each, on 1 and on 8 connections at once,
for a few seconds each, on a scratch database dropped at the end.

This is the server's floor, not a figure of the product: each process's steps commit in
batches of 200-1,000 rows, so runs/s is far above commits/s. It says how much a commit
costs at all on this machine (innodb_flush_log_at_trx_commit as the server has it).

    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler .venv/bin/python bench/commit_probe.py
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import mariadb  # noqa: E402

TABLE = "CREATE TABLE probe (id BIGINT AUTO_INCREMENT PRIMARY KEY, at DATETIME(6) NOT NULL)"
INSERT = "INSERT INTO probe (at) VALUES (NOW(6))"


def inserts_for(database: str, seconds: float, counts: list[int], index: int) -> None:
    """One connection's autocommit inserts until `seconds` are up; its count in counts."""
    connection = mariadb.connect(database)
    cursor = connection.cursor()
    done = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        cursor.execute(INSERT)
        done += 1
    counts[index] = done
    connection.close()


def commits_per_second(database: str, connections: int, seconds: float) -> float:
    """Commits/s of `connections` connections inserting at once for `seconds`."""
    counts = [0] * connections
    threads = [
        threading.Thread(target=inserts_for, args=(database, seconds, counts, n))
        for n in range(connections)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - started)


def main(argv: list[str] | None = None) -> dict[int, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per connection count")
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 8])
    args = parser.parse_args(argv)
    database = f"{mariadb.server()[1]}_commit_probe"
    setup = mariadb.connect(database, fresh=True)
    cursor = setup.cursor()
    cursor.execute(TABLE)
    cursor.execute("SELECT @@innodb_flush_log_at_trx_commit")
    flush = cursor.fetchone()[0]
    print(mariadb.machine_line(cursor))
    print(f"load average {os.getloadavg()[0]:.1f}, innodb_flush_log_at_trx_commit={flush}")
    rates = {}
    try:
        for connections in args.connections:
            rates[connections] = commits_per_second(database, connections, args.seconds)
            print(f"{connections} connections: {rates[connections]:,.0f} commits/s")
    finally:
        cursor.execute(f"DROP DATABASE IF EXISTS `{database}`")
        setup.close()
    return rates


if __name__ == "__main__":
    main()
