"""The queue on SQLite (the embedded mode): its statements, and the engine that runs them.

SQLite has no SKIP LOCKED and no NOW(6): one writer at a time, and every instant is a
parameter written as the naive UTC text the columns hold.
"""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from jobs.queue.engine import Row, SameShapeSteps
from jobs.queue.sql import MINUTE_FIELDS, TASK_STATUS, minute_counts_upsert
from scheduler_site.sqltools import datetime_param

MARK_RUNNING = """
UPDATE jobs
SET status = 'running', worker_id = %s, attempt = attempt + 1, claimed_at = %s, updated_at = %s,
    lease_expires_at = strftime('%%Y-%%m-%%d %%H:%%M:%%f', max(next_attempt_at, %s),
        '+' || (timeout_seconds + %s) || ' seconds')
WHERE id IN (SELECT value FROM json_each(%s)) AND status = 'pending'
"""

CLAIMED_DETAILS = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority,
    t.url, t.method, t.headers, t.body, t.secret_ref, n.signing_secret, {TASK_STATUS},
    j.lease_expires_at, n.previous_signing_secret, n.previous_signing_secret_until, j.run_now,
    t.overlap = 'buffer_one',
    t.on_success_url IS NOT NULL OR t.on_failure_url IS NOT NULL OR n.on_failure_url IS NOT NULL
FROM jobs AS j
JOIN tasks AS t ON t.id = j.task_id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.id IN (SELECT value FROM json_each(%s)) AND j.status = 'running' AND j.worker_id = %s
""".replace("{TASK_STATUS}", TASK_STATUS)

# The rows this batch's results may write; read before they change, under the one writer.
FENCED = """
SELECT DISTINCT jobs.id, jobs.tenant_id, jobs.next_attempt_at, jobs.priority FROM json_each(%s) AS r
JOIN jobs ON jobs.id = r.value ->> '$[0]'
WHERE jobs.status = 'running' AND jobs.worker_id = %s AND jobs.attempt = r.value ->> '$[1]'
"""

RECORD_ATTEMPTS = """
INSERT INTO job_attempts
    (job_id, attempt, started_at, duration_ms, http_status, error, response_head, outcome)
SELECT jobs.id, r.value ->> '$[1]', r.value ->> '$[9]', r.value ->> '$[8]',
    r.value ->> '$[5]', r.value ->> '$[6]', substr(r.value ->> '$[7]', 1, 256),
    CASE WHEN r.value ->> '$[2]' = 'pending' THEN 'retry' ELSE r.value ->> '$[2]' END
FROM json_each(%s) AS r
JOIN jobs ON jobs.id = r.value ->> '$[0]'
WHERE r.value ->> '$[9]' IS NOT NULL
    AND jobs.status = 'running' AND jobs.worker_id = %s AND jobs.attempt = r.value ->> '$[1]'
"""

RECORD_RESULTS = """
UPDATE jobs
SET status = r.value ->> '$[2]',
    next_attempt_at = COALESCE(r.value ->> '$[3]', jobs.next_attempt_at),
    finished_at = r.value ->> '$[4]',
    http_status = r.value ->> '$[5]',
    error = r.value ->> '$[6]',
    response_body = r.value ->> '$[7]',
    duration_ms = r.value ->> '$[8]',
    started_at = COALESCE(r.value ->> '$[9]', jobs.started_at),
    lease_expires_at = NULL,
    worker_id = CASE WHEN r.value ->> '$[2]' = 'pending' THEN NULL ELSE jobs.worker_id END,
    updated_at = %s
FROM json_each(%s) AS r
WHERE jobs.id = r.value ->> '$[0]' AND jobs.status = 'running' AND jobs.worker_id = %s
    AND jobs.attempt = r.value ->> '$[1]'
"""

# A job handed back `held` goes back `pending` if its task was resumed meanwhile (a callback,
# which has no task row, never stays held).
HAND_BACK = """
UPDATE jobs
SET status = CASE
        WHEN r.value ->> '$[2]' = 'held'
            AND COALESCE((SELECT status FROM tasks WHERE tasks.id = jobs.task_id), '') <> 'paused'
        THEN 'pending' ELSE r.value ->> '$[2]' END,
    worker_id = NULL, lease_expires_at = NULL, claimed_at = NULL,
    max_attempts = max_attempts + 1, updated_at = %s
FROM json_each(%s) AS r
WHERE jobs.id = r.value ->> '$[0]' AND jobs.status = 'running' AND jobs.worker_id = %s
    AND jobs.attempt = r.value ->> '$[1]'
"""

# Both statements pick the same rows: the same ordered range, under the one writer's lock.
# A running row's wake_at is its lease expiry.
EXPIRED = """
    SELECT id FROM jobs WHERE status = 'running' AND wake_at < %s ORDER BY id LIMIT %s
"""

EXPIRED_ATTEMPTS = f"""
INSERT INTO job_attempts (job_id, attempt, started_at, error, outcome)
SELECT id, attempt, COALESCE(MAX(next_attempt_at, claimed_at), next_attempt_at),
    'lease expired', CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'retry' END
FROM jobs WHERE id IN ({EXPIRED})
"""

# The row tells of the attempt that expired (reply and timing unknown), not the one before.
RECONCILE = f"""
UPDATE jobs
SET status = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'pending' END,
    next_attempt_at = %s,
    finished_at = CASE WHEN attempt >= max_attempts THEN %s ELSE NULL END,
    error = 'lease expired', http_status = NULL, duration_ms = NULL, response_body = NULL,
    worker_id = NULL, lease_expires_at = NULL, updated_at = %s
WHERE id IN ({EXPIRED})
"""

ARCHIVE_DELETE = """
DELETE FROM jobs WHERE (id, status, attempt) IN (
    SELECT value ->> '$[0]', value ->> '$[1]', value ->> '$[2]' FROM json_each(%s))
"""

ARCHIVE_DELETE_ATTEMPTS = """
DELETE FROM job_attempts
WHERE job_id IN (SELECT value ->> '$[0]' FROM json_each(%s))
    AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.id = job_attempts.job_id)
"""

DEAD_LETTER_IDS = """
SELECT id FROM jobs INDEXED BY jobs_dead_letters_idx
WHERE dead_tenant = %s AND id < %s
ORDER BY id DESC LIMIT %s
"""

# `WHERE true`: without it SQLite would read ON CONFLICT as a join's ON.
ADD_MINUTE_COUNTS = minute_counts_upsert(
    "json_each(%s) AS r WHERE true",
    ", ".join(f"r.value ->> '$[{index}]'" for index in range(len(MINUTE_FIELDS))),
    "ON CONFLICT (tenant_id, minute, writer) DO UPDATE SET",
    "{0} = minute_counts.{0} + excluded.{0}",
)


def _now() -> str:
    return datetime_param(timezone.now())


class SQLiteQueue(SameShapeSteps):
    lock = ""
    ARCHIVE_DELETE, ARCHIVE_DELETE_ATTEMPTS = ARCHIVE_DELETE, ARCHIVE_DELETE_ATTEMPTS
    DEAD_LETTER_IDS = DEAD_LETTER_IDS

    def horizon(self, seconds: float) -> tuple[str, list]:
        return "%s", [datetime_param(timezone.now() + timedelta(seconds=seconds))]

    def mark_running(self, cursor, keys: str, worker_id: str, margin: int) -> None:
        now = _now()
        cursor.execute(MARK_RUNNING, [worker_id, now, now, now, margin, keys])

    def claimed_details(self, cursor, keys: str, worker_id: str) -> list[Row]:
        cursor.execute(CLAIMED_DETAILS, [keys, worker_id])
        return cursor.fetchall()

    def record_results(self, cursor, rows: str, worker_id: str) -> list:
        cursor.execute(FENCED, [rows, worker_id])
        fenced = list({row[0]: row for row in cursor.fetchall()}.values())
        cursor.execute(RECORD_ATTEMPTS, [rows, worker_id])
        cursor.execute(RECORD_RESULTS, [_now(), rows, worker_id])
        return fenced

    def add_minute_counts(self, cursor, rows: str) -> None:
        cursor.execute(ADD_MINUTE_COUNTS, [rows])

    def hand_back(self, cursor, rows: str, worker_id: str) -> int:
        cursor.execute(HAND_BACK, [_now(), rows, worker_id])
        return cursor.rowcount

    def reconcile(self, cursor, batch_size: int) -> list[str]:
        now = _now()
        cursor.execute(EXPIRED, [now, batch_size])
        expired = [row[0] for row in cursor.fetchall()]
        if not expired:
            return []
        cursor.execute(EXPIRED_ATTEMPTS, [now, batch_size])
        cursor.execute(RECONCILE, [now, now, now, now, batch_size])
        return expired

    def parameter_limit(self, cursor) -> int:
        return connection.connection.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)

    def parameter_bytes(self, text: str) -> int:
        return len(text)  # bound as it is, and ASCII: one byte a character
