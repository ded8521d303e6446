"""Raw MariaDB connections of the benchmarks that work below Django (scratch tables)."""

from __future__ import annotations

import os
import platform
import time
from urllib.parse import urlparse

import MySQLdb

PURGE_BACKLOG = "SELECT count FROM information_schema.INNODB_METRICS WHERE name = %s"


def server() -> tuple[dict, str]:
    """Connection settings and database name of DATABASE_URL (default: local root, wt_bench)."""
    url = urlparse(os.environ.get("DATABASE_URL", "mysql://root:@127.0.0.1:3306/wt_bench"))
    settings = {"host": url.hostname, "port": url.port or 3306, "user": url.username or "root"}
    return settings | {"passwd": url.password or ""}, url.path.lstrip("/")


def connect(database: str, *, fresh: bool = False) -> MySQLdb.Connection:
    """A connection to `database` on DATABASE_URL's server, created anew when `fresh`."""
    connection = MySQLdb.connect(**server()[0])
    connection.autocommit(True)
    cursor = connection.cursor()
    if fresh:
        cursor.execute(f"DROP DATABASE IF EXISTS `{database}`")
    cursor.execute(f"CREATE DATABASE IF NOT EXISTS `{database}` CHARACTER SET utf8mb4")
    cursor.execute(f"USE `{database}`")
    return connection


def wait_for_purge(cursor, *, below: int = 1, timeout: float = 30.0) -> bool:
    """Until InnoDB's purge of old row versions is done (True), or `timeout` (False). The
    history list counts transactions, not rows (one UPDATE of 50,000 rows is one entry), so
    only an empty list means done; it is server-wide, so another engineer's load can keep
    it up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        cursor.execute(PURGE_BACKLOG, ["trx_rseg_history_len"])
        if cursor.fetchone()[0] < below:
            return True
        time.sleep(0.2)
    return False


def machine_line(cursor) -> str:
    cursor.execute("SELECT VERSION()")
    version = cursor.fetchone()[0]
    model = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (
        f"{os.cpu_count()} cores ({model}), Python {platform.python_version()},"
        f" MariaDB {version}, {platform.system()} {platform.release()}"
    )
