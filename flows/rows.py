"""The gate's writes of many rows, as one multi-row statement each: the ORM's bulk_create
spent more time building a thousand parked rows than the database took to store them."""

from __future__ import annotations

from django.db import connection

WAITS = """INSERT {ignore} INTO flow_waits (flow_id, priority, next_attempt_at, job_id)
VALUES (%s, %s, %s, %s)"""
CALLS = "{replace} INTO flow_calls (job_id, flow_id, attempt) VALUES (%s, %s, %s)"


def insert_waits(cursor, rows: list[tuple]) -> None:
    """(flow id, priority, due as a parameter, job id as the database spells it); a row
    already there (the job parked before, its row not yet dropped) is kept."""
    if rows:
        ignore = "IGNORE" if connection.vendor == "mysql" else "OR IGNORE"
        cursor.executemany(WAITS.format(ignore=ignore), rows)


def replace_calls(cursor, rows: list[tuple]) -> None:
    """(job id as the database spells it, flow id, attempt): a job's row of an earlier
    attempt is replaced."""
    if rows:
        replace = "REPLACE" if connection.vendor == "mysql" else "INSERT OR REPLACE"
        cursor.executemany(CALLS.format(replace=replace), rows)
