"""The per-minute counts of a result batch (jobs.models.MinuteCount), added in the result's
own transaction: one upsert statement per batch, whatever its size.

Counted: every attempt the batch wrote (fenced in), callbacks aside (a lane of their own,
claimed after every due run). An attempt answered 2xx is `delivered`; a failed one with
attempts left (the job goes back to pending) is `failed`; a failed last attempt is `dead`.
A result with no attempt (a cancel) counts for nothing. Its start delay is its start minus
the time it was due (the job's next_attempt_at before this write: the scheduled time of a
first attempt, the backoff's end of a retry), counted in the minute it started.
"""

from __future__ import annotations

import json
import uuid
import zlib
from datetime import datetime

from jobs.minute_buckets import COLUMNS, bucket_of
from jobs.models import CALLBACK_PRIORITY, JobStatus
from jobs.queue.rows import JobResult
from scheduler_site.sqltools import datetime_from_db, datetime_param, uuid_param

# The row of every tenant's total (no tenant has this id: ids are UUIDv7).
ALL_TENANTS = uuid.UUID(int=0)
OUTCOMES = {JobStatus.SUCCEEDED: 0, JobStatus.PENDING: 1, JobStatus.DEAD: 2}

Fenced = tuple  # (id, tenant_id, next_attempt_at, priority) as the engine read them


def writer_number(worker_id: str) -> int:
    """A fixed-size key for the executor: two sharing a number only share rows."""
    return zlib.crc32(worker_id.encode())


def minute_rows(worker_id: str, results: list[JobResult], fenced: list[Fenced]) -> list[list]:
    """The rows to add, sorted by key (executors upserting in one order never deadlock).

    On the hot path of every result: ids and tenants stay as the database spelled them
    (the rows go back to the same columns), and each minute is spelled once."""
    written = {row[0]: row for row in fenced}
    everyone = uuid_param(ALL_TENANTS)
    minutes: dict[datetime, str] = {}
    counts: dict[tuple[str, str], list[int]] = {}
    for result in results:
        row = written.pop(result.key, None)  # each job once, as the update
        outcome = OUTCOMES.get(result.status)
        started = result.started_at
        if row is None or started is None or outcome is None or row[3] == CALLBACK_PRIORITY:
            continue
        delay = bucket_of((started - datetime_from_db(row[2])).total_seconds())
        start = started.replace(second=0, microsecond=0)
        minute = minutes.get(start) or minutes.setdefault(start, datetime_param(start))
        for tenant in (str(row[1]), everyone):
            cells = counts.get((tenant, minute))
            if cells is None:
                cells = counts[tenant, minute] = [0] * (3 + len(COLUMNS))
            cells[outcome] += 1
            cells[3 + delay] += 1
    writer = writer_number(worker_id)
    return [[tenant, minute, writer, *cells] for (tenant, minute), cells in sorted(counts.items())]


def add_minute_counts(cursor, engine, worker_id: str, results, fenced) -> None:
    """Add the batch's counts: one statement, the rows as one JSON parameter."""
    rows = minute_rows(worker_id, results, fenced)
    if rows:
        engine.add_minute_counts(cursor, json.dumps(rows))
