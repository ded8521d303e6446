"""The queue's storage engine: the few statements that differ between MySQL/MariaDB and
SQLite, behind one interface, so the use cases in jobs/queue/ have no backend branches."""

from __future__ import annotations

from typing import Any, Protocol

from django.db import connection

Row = tuple[Any, ...]


class QueueEngine(Protocol):
    lock: str  # what a claim's read appends to lock its rows ("" where one writer rules)

    def horizon(self, seconds: float) -> tuple[str, list]:
        """SQL for "now + seconds" and its parameters."""

    def mark_running(self, cursor, keys: str, worker_id: str, margin: int) -> None:
        """pending -> running for the JSON list of ids, leased from each job's own time."""

    def claimed_details(self, cursor, keys: str, worker_id: str) -> list[Row]:
        """What the executor needs to call each job just claimed."""

    def record_results(self, cursor, rows: str, worker_id: str) -> list[Row]:
        """Results and their attempts, fenced by (running, worker, attempt); the rows
        written, each once, as (id, tenant_id, next_attempt_at, priority) before the write."""

    def add_minute_counts(self, cursor, rows: str) -> None:
        """Add the JSON list of per-minute count rows (jobs/queue/minute_counts.py)."""

    def hand_back(self, cursor, rows: str, worker_id: str) -> int:
        """running -> pending (or held), charging no attempt."""

    def archive_delete(self, cursor, batch: str) -> int:
        """Delete the JSON list of [id, status, attempt] still as read, and their attempts."""

    def dead_letter_ids(self, cursor, tenant: str, before: str, limit: int) -> list[Row]:
        """Ids of a tenant's dead jobs below `before`, newest first, read from the wake
        index whatever the optimizer would pick."""

    def reconcile(self, cursor, batch_size: int) -> list[str]:
        """running -> pending (or dead) where the lease expired; the ids settled."""

    def parameter_limit(self, cursor) -> int:
        """The largest parameter this connection takes, in the units of parameter_bytes."""

    def parameter_bytes(self, text: str) -> int:
        """What the ASCII `text` weighs as a statement's parameter."""


class SameShapeSteps:
    """The steps whose statements differ between the engines but whose use does not: each
    engine names its statements, this runs them."""

    ARCHIVE_DELETE: str
    ARCHIVE_DELETE_ATTEMPTS: str
    DEAD_LETTER_IDS: str

    def archive_delete(self, cursor, batch: str) -> int:
        cursor.execute(self.ARCHIVE_DELETE, [batch])
        deleted = cursor.rowcount
        cursor.execute(self.ARCHIVE_DELETE_ATTEMPTS, [batch])
        return deleted

    def dead_letter_ids(self, cursor, tenant: str, before: str, limit: int) -> list[Row]:
        cursor.execute(self.DEAD_LETTER_IDS, [tenant, before, limit])
        return cursor.fetchall()


def queue_engine() -> QueueEngine:
    if connection.vendor == "mysql":
        from jobs.queue.mysql import MySQLQueue

        return MySQLQueue()
    from jobs.queue.sqlite import SQLiteQueue

    return SQLiteQueue()
