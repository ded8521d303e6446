"""The ledger's running totals by reason, for Prometheus (read by the metrics process).

Added after the recording transaction commits, in one small statement of its own: the
tick holds no lock on a shared row, and a total lost to a failure right after a commit
costs a metric, never a ledger entry (the entries are the record)."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection

log = logging.getLogger(__name__)

UPSERT_MYSQL = """
INSERT INTO skipped_run_totals (reason, runs) VALUES {rows}
ON DUPLICATE KEY UPDATE runs = runs + VALUES(runs)
"""
UPSERT_SQLITE = """
INSERT INTO skipped_run_totals (reason, runs) VALUES {rows}
ON CONFLICT (reason) DO UPDATE SET runs = runs + excluded.runs
"""


def add_skip_totals(by_reason: dict[str, int]) -> None:
    if not by_reason:
        return
    reasons = sorted(by_reason)  # one order for every writer
    statement = UPSERT_MYSQL if connection.vendor == "mysql" else UPSERT_SQLITE
    rows = ", ".join("(%s, %s)" for _ in reasons)
    params = [value for reason in reasons for value in (reason, by_reason[reason])]
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement.format(rows=rows), params)
    except DatabaseError:
        log.warning("skipped-run totals not added: %s", by_reason, exc_info=True)


def read_skip_totals(cursor) -> list[tuple[str, int]]:
    cursor.execute("SELECT reason, runs FROM skipped_run_totals ORDER BY reason")
    return [(reason, int(runs)) for reason, runs in cursor.fetchall()]
