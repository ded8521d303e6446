"""All raw SQL of the tasks app: the scheduler tick's three statements.

Both backends run the same steps; MySQL/MariaDB passes each batch as one JSON parameter
read by JSON_TABLE, SQLite reads it with json_each. One parameter per batch keeps the
statement text and the driver's escaping work constant whatever the batch size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import connection

from scheduler_site.sqltools import datetime_from_db, datetime_param
from tasks.critical_grant import JOB_PRIORITY_SQL
from tasks.labels import JOB_LABELS_SQL


@dataclass(slots=True)
class DueTask:
    id: str  # as the database spells it, ready to be sent back
    cron: str | None
    timezone: str
    next_run_at: datetime
    misfire_policy: str
    interval_seconds: int | None
    ends_at: datetime | None
    max_runs: int | None
    runs_made: int
    overlap: str
    open_skip_id: str | None
    open_skip_reason: str | None
    overlap_job_id: str | None = None  # as the database spells it


DUE_COLUMNS = (
    "id, cron, timezone, next_run_at, misfire_policy, interval_seconds, ends_at, max_runs,"
    " runs_made, overlap, open_skip_id, open_skip_reason, overlap_job_id, priority"
)


# One tight index range per priority level, each stopping at its LIMIT, locked as it is
# read. SKIP LOCKED: rows another scheduler (or an edit) holds are left for a later tick,
# never waited on, so schedulers on different buckets do not serialise on each other.
# In a backlog a part may lock rows the outer LIMIT then drops (at most the batch size per
# priority level); they stay due and are taken by the next tick.
DUE_PART = """
SELECT * FROM (
    SELECT {columns} FROM tasks
    WHERE status = 'active' AND priority = {priority} AND next_run_at <= %s{buckets}
    ORDER BY next_run_at LIMIT %s{lock}
) AS p{priority}"""

INSERT_JOBS_MYSQL = f"""
INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,
    max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, labels, created_at,
    updated_at)
SELECT r.job_id, t.tenant_id, t.id, t.next_run_at, {JOB_PRIORITY_SQL}, r.status, 0,
    t.max_attempts, t.next_run_at, t.timeout_seconds, t.backoff_base_seconds, {JOB_LABELS_SQL},
    %s, %s
FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    job_id CHAR(36) PATH '$[0]',
    task_id CHAR(36) PATH '$[1]',
    status VARCHAR(16) PATH '$[2]')) AS r
STRAIGHT_JOIN tasks AS t ON t.id = r.task_id
ON DUPLICATE KEY UPDATE jobs.id = jobs.id
"""

INSERT_JOBS_SQLITE = f"""
INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,
    max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, labels, created_at,
    updated_at)
SELECT r.value ->> '$[0]', t.tenant_id, t.id, t.next_run_at, {JOB_PRIORITY_SQL},
    r.value ->> '$[2]', 0,
    t.max_attempts, t.next_run_at, t.timeout_seconds, t.backoff_base_seconds, {JOB_LABELS_SQL},
    %s, %s
FROM json_each(%s) AS r
JOIN tasks AS t ON t.id = r.value ->> '$[1]'
WHERE true
ON CONFLICT (task_id, scheduled_at) DO NOTHING
"""

# Each row: task id, next_run_at, status, runs made, runs skipped, and the open entry of
# the skipped-run ledger (tasks/skip_ledger.py) after this step.
ADVANCE_TASKS_MYSQL = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (
    task_id CHAR(36) PATH '$[0]',
    next_run_at DATETIME(6) PATH '$[1]',
    status VARCHAR(16) PATH '$[2]',
    runs INT PATH '$[3]',
    skips BIGINT PATH '$[4]',
    skip_id CHAR(36) PATH '$[5]',
    skip_reason VARCHAR(16) PATH '$[6]',
    overlap_job_id CHAR(36) PATH '$[7]')) AS r
STRAIGHT_JOIN tasks AS t ON t.id = r.task_id
SET t.next_run_at = r.next_run_at, t.status = r.status, t.runs_made = t.runs_made + r.runs,
    t.skipped_runs = t.skipped_runs + r.skips, t.open_skip_id = r.skip_id,
    t.open_skip_reason = r.skip_reason, t.overlap_job_id = r.overlap_job_id
"""

ADVANCE_TASKS_SQLITE = """
UPDATE tasks
SET next_run_at = r.value ->> '$[1]', status = r.value ->> '$[2]',
    runs_made = runs_made + (r.value ->> '$[3]'),
    skipped_runs = skipped_runs + (r.value ->> '$[4]'),
    open_skip_id = r.value ->> '$[5]', open_skip_reason = r.value ->> '$[6]',
    overlap_job_id = r.value ->> '$[7]'
FROM json_each(%s) AS r
WHERE tasks.id = r.value ->> '$[0]'
"""

# The step of almost every due task: one run made, nothing skipped, the ledger entry and the
# remembered run as they were. Only next_run_at (the one indexed column) and the run count
# change, and the JSON list holds two values a row: about a quarter cheaper than the full
# statement over the same rows (bench/scheduler_tick.py).
ADVANCE_RUNS_MYSQL = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (
    task_id CHAR(36) PATH '$[0]',
    next_run_at DATETIME(6) PATH '$[1]')) AS r
STRAIGHT_JOIN tasks AS t ON t.id = r.task_id
SET t.next_run_at = r.next_run_at, t.runs_made = t.runs_made + 1
"""

ADVANCE_RUNS_SQLITE = """
UPDATE tasks SET next_run_at = r.value ->> '$[1]', runs_made = runs_made + 1
FROM json_each(%s) AS r
WHERE tasks.id = r.value ->> '$[0]'
"""


@dataclass(frozen=True)
class TickDialect:
    """The tick's statements that differ between the backends, chosen once per call."""

    lock: str  # what the due read appends to lock its rows ("" where one writer rules)
    insert_jobs: str
    advance_tasks: str
    advance_runs: str  # the plain step's (Advance.plain)


DIALECTS = {
    "mysql": TickDialect(
        " FOR UPDATE SKIP LOCKED", INSERT_JOBS_MYSQL, ADVANCE_TASKS_MYSQL, ADVANCE_RUNS_MYSQL
    ),
    "sqlite": TickDialect("", INSERT_JOBS_SQLITE, ADVANCE_TASKS_SQLITE, ADVANCE_RUNS_SQLITE),
}


def dialect() -> TickDialect:
    return DIALECTS[connection.vendor]


def _bucket_filter(bucket_ranges: list[tuple[int, int]] | None) -> tuple[str, list]:
    if not bucket_ranges:
        return "", []
    clauses = " OR ".join("bucket BETWEEN %s AND %s" for _ in bucket_ranges)
    params = [bound for pair in bucket_ranges for bound in pair]
    return f" AND ({clauses})", params


def select_due(
    cursor,
    *,
    priorities: range,
    due_before: datetime,
    limit: int,
    bucket_ranges: list[tuple[int, int]] | None,
) -> list[DueTask]:
    """Lock up to `limit` due active tasks (a stopped tenant's are `suspended`, outside the
    range): most urgent priority first, then oldest next_run_at. One statement whatever
    the batch size."""
    buckets, bucket_params = _bucket_filter(bucket_ranges)
    lock = dialect().lock
    due = datetime_param(due_before)
    parts, params = [], []
    for priority in priorities:
        parts.append(
            DUE_PART.format(columns=DUE_COLUMNS, priority=int(priority), buckets=buckets, lock=lock)
        )
        params += [due, *bucket_params, limit]
    statement = " UNION ALL ".join(parts) + " ORDER BY priority, next_run_at LIMIT %s"
    cursor.execute(statement, [*params, limit])
    return [_due_task(row) for row in cursor.fetchall()]


def _due_task(row: tuple) -> DueTask:
    return DueTask(
        row[0], row[1], row[2], datetime_from_db(row[3]), row[4], row[5],
        datetime_from_db(row[6]), row[7], row[8], row[9], row[10], row[11],
        row[12],
    )  # fmt: skip


def insert_jobs(cursor, rows: list[tuple[str, str, str]], now: datetime) -> None:
    """Insert a job for each (job_id, task_id, status: pending, or waiting for an earlier
    run, tasks/overlap.py) at the task's current next_run_at (read
    before the advance, in the same transaction); an existing run is a no-op."""
    stamp = datetime_param(now)
    cursor.execute(dialect().insert_jobs, [stamp, stamp, json.dumps(rows)])


class Advance(NamedTuple):
    """What one step of a task's schedule writes on its row."""

    task_id: str
    next_run_at: str | None  # datetime_param text
    status: str
    runs: int = 0
    skips: int = 0
    open_skip_id: str | None = None
    open_skip_reason: str | None = None
    overlap_job_id: str | None = None  # the run the overlap check reads (tasks/overlap.py)
    # Still active, one run made, none skipped, the ledger entry and the remembered run
    # unchanged: written by the narrow statement (only next_run_at and runs_made move).
    plain: bool = False


def advance_tasks(cursor, rows: list[Advance]) -> None:
    """Write every selected task's step: the plain ones in one narrow statement, the rest
    (completions, skips, the ledger, overlap) in one full statement."""
    plain = [[row.task_id, row.next_run_at] for row in rows if row.plain]
    rest = [row[:-1] for row in rows if not row.plain]
    if plain:
        cursor.execute(dialect().advance_runs, [json.dumps(plain)])
    if rest:
        cursor.execute(dialect().advance_tasks, [json.dumps(rest)])
