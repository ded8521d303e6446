"""Row-lock waits of this test run's own sessions, as InnoDB reports them."""

from __future__ import annotations

import time

from django.db import connection


def lock_waits() -> int:
    """Sessions of this test database waiting for a row lock (other runs share the
    server, and their waits are not this test's)."""
    return len(waiting_transactions())


def waiting_transactions() -> list:
    """The ids of this test database's transactions waiting for a row lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.trx_id FROM information_schema.innodb_trx t"
            " JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id"
            " WHERE t.trx_state = 'LOCK WAIT' AND p.db = DATABASE()"
        )
        return [row[0] for row in cursor.fetchall()]


def wait_for_lock_waits(count: int, timeout: float = 20) -> None:
    """Until `count` sessions of this database wait for a row lock (or `timeout`)."""
    deadline = time.monotonic() + timeout
    while lock_waits() < count and time.monotonic() < deadline:
        time.sleep(0.15)  # innodb_trx is refreshed only when not read for 0.1 s
