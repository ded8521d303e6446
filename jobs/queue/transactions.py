"""One short write transaction per use case, run again when the database refused it a lock:
picked as a deadlock victim, or (for the background processes, which no proxy cuts short) a
lock wait run out."""

from __future__ import annotations

import time

from django.db import connection, transaction
from django.db.utils import OperationalError

from scheduler_site.sqltools import DEADLOCK_CODES, lock_refused


def retrying_deadlocks(operation, attempts: int = 5, codes: frozenset = DEADLOCK_CODES):
    """Run a write transaction again when the database refused it a lock with one of
    `codes`: by default a deadlock (1213) or a lock wait run out (1205)."""
    for attempt in range(attempts):
        try:
            return operation()
        except OperationalError as exc:
            if not lock_refused(exc, codes) or attempt == attempts - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def in_write_transaction(work):
    """Run `work(cursor)` in one transaction, again if the database refused it a lock."""

    def attempt():
        with transaction.atomic(), connection.cursor() as cursor:
            return work(cursor)

    return retrying_deadlocks(attempt)
