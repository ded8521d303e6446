"""The queue on MySQL/MariaDB: its statements, and the engine that runs them.

Batches arrive as one JSON parameter read by JSON_TABLE and reach their rows through the
primary key (FORCE INDEX): with a list of a few hundred keys MariaDB would otherwise plan on
a status index, scan, and lock far more than the batch.
"""

from __future__ import annotations

import json

from jobs.queue.engine import Row, SameShapeSteps
from jobs.queue.sql import MINUTE_FIELDS, TASK_STATUS, minute_counts_upsert
from jobs.wake_index import oldest_rows

MARK_RUNNING = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = 'running', j.worker_id = %s, j.attempt = j.attempt + 1,
    j.claimed_at = NOW(6), j.updated_at = NOW(6),
    j.lease_expires_at = GREATEST(j.next_attempt_at, NOW(6))
        + INTERVAL (j.timeout_seconds + %s) SECOND
WHERE j.status = 'pending'
"""

CLAIMED_DETAILS = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority,
    t.url, t.method, t.headers, t.body, t.secret_ref, n.signing_secret, {TASK_STATUS},
    j.lease_expires_at, n.previous_signing_secret, n.previous_signing_secret_until, j.run_now,
    t.overlap = 'buffer_one',
    t.on_success_url IS NOT NULL OR t.on_failure_url IS NOT NULL OR n.on_failure_url IS NOT NULL
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j ON j.id = c.id
JOIN tasks AS t ON t.id = j.task_id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.status = 'running' AND j.worker_id = %s
""".replace("{TASK_STATUS}", TASK_STATUS)

RESULT_COLUMNS = """
    id CHAR(36) PATH '$[0]',
    attempt INT PATH '$[1]',
    status VARCHAR(16) PATH '$[2]',
    next_attempt_at DATETIME(6) PATH '$[3]',
    finished_at DATETIME(6) PATH '$[4]',
    http_status INT PATH '$[5]',
    error VARCHAR(500) PATH '$[6]',
    response_body TEXT PATH '$[7]',
    duration_ms INT PATH '$[8]',
    started_at DATETIME(6) PATH '$[9]'"""

# The rows whose results this round may write, locked first: at READ COMMITTED the
# INSERT ... SELECT below reads without locking, and a reconciler taking the same row in
# between would deadlock with it. Locked here, the reconciler's SKIP LOCKED passes them by.
LOCK_FENCED = f"""
SELECT j.id, j.tenant_id, j.next_attempt_at, j.priority
FROM JSON_TABLE(%s, '$[*]' COLUMNS ({RESULT_COLUMNS})) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
FOR UPDATE
"""

# One row per attempt (a result of no attempt, a cancel, has no start and no row).
RECORD_ATTEMPTS = f"""
INSERT INTO job_attempts
    (job_id, attempt, started_at, duration_ms, http_status, error, response_head, outcome)
SELECT j.id, r.attempt, r.started_at, r.duration_ms, r.http_status, r.error,
    LEFT(r.response_body, 256), IF(r.status = 'pending', 'retry', r.status)
FROM JSON_TABLE(%s, '$[*]' COLUMNS ({RESULT_COLUMNS})) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
WHERE r.started_at IS NOT NULL
    AND j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
"""

RECORD_RESULTS = f"""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS ({RESULT_COLUMNS})) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
SET j.status = r.status,
    j.next_attempt_at = COALESCE(r.next_attempt_at, j.next_attempt_at),
    j.finished_at = r.finished_at,
    j.http_status = r.http_status,
    j.error = r.error,
    j.response_body = r.response_body,
    j.duration_ms = r.duration_ms,
    j.started_at = COALESCE(r.started_at, j.started_at),
    j.lease_expires_at = NULL,
    j.worker_id = IF(r.status = 'pending', NULL, j.worker_id),
    j.updated_at = NOW(6)
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
"""

# A job handed back `held` (its task was paused) goes back `pending` if the task was
# resumed meanwhile: the resume released the held jobs before this one was held. A callback
# has no task row (LEFT JOIN): it is handed back too, and never stays held.
HAND_BACK = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', attempt INT PATH '$[1]', status VARCHAR(16) PATH '$[2]')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
LEFT JOIN tasks AS t ON t.id = j.task_id
SET j.status = IF(r.status = 'held' AND COALESCE(t.status, '') <> 'paused', 'pending', r.status),
    j.worker_id = NULL, j.lease_expires_at = NULL, j.claimed_at = NULL,
    j.max_attempts = j.max_attempts + 1, j.updated_at = NOW(6)
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
"""

LOCK_EXPIRED = """
SELECT j.id FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
WHERE j.status = 'running' AND j.lease_expires_at < NOW(6)
FOR UPDATE SKIP LOCKED
"""

# The attempt the lease covered, as far as anyone knows: due to start at its time (or at
# the claim, when claimed late), never heard of again.
EXPIRED_ATTEMPTS = """
INSERT INTO job_attempts (job_id, attempt, started_at, error, outcome)
SELECT j.id, j.attempt, COALESCE(GREATEST(j.next_attempt_at, j.claimed_at), j.next_attempt_at),
    'lease expired', IF(j.attempt >= j.max_attempts, 'dead', 'retry')
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
"""

# The row then tells of the attempt that expired, not of the one before it: its reply and
# timing are unknown (a failure callback reports the row).
RECONCILE = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = IF(j.attempt >= j.max_attempts, 'dead', 'pending'),
    j.next_attempt_at = NOW(6),
    j.finished_at = IF(j.attempt >= j.max_attempts, NOW(6), NULL),
    j.error = 'lease expired', j.http_status = NULL, j.duration_ms = NULL,
    j.response_body = NULL, j.worker_id = NULL, j.lease_expires_at = NULL,
    j.updated_at = NOW(6)
"""


# The archive's delete: a row goes only if its (id, status, attempt) is still as read.
ARCHIVE_DELETE = """
DELETE j FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', status VARCHAR(16) PATH '$[1]', attempt INT PATH '$[2]'
)) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY)
    ON j.id = c.id AND j.status = c.status AND j.attempt = c.attempt
"""

# A job's attempts go with it, and only then: a job still in the queue keeps its log.
ARCHIVE_DELETE_ATTEMPTS = """
DELETE a FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$[0]')) AS c
STRAIGHT_JOIN job_attempts AS a ON a.job_id = c.id
WHERE NOT EXISTS (SELECT 1 FROM jobs AS j WHERE j.id = c.id)
"""


# A tenant's dead letters, newest first: one range of the DLQ's index read backwards, which
# stops after the page (the wake index held them in ten ranges by death time, each read to
# its end and sorted). Named: left to choose, MariaDB may walk the primary key backwards
# instead, through every younger job of every tenant when the tenant's dead jobs are old.
DEAD_LETTER_IDS = """
SELECT id FROM jobs FORCE INDEX (jobs_dead_letters_idx)
WHERE dead_tenant = %s AND id < %s
ORDER BY id DESC LIMIT %s
"""


# Counters qualified: in an INSERT ... SELECT a bare name could also be the SELECT's column.
MINUTE_COLUMNS = ", ".join(
    ["tenant_id CHAR(36) PATH '$[0]'", "minute DATETIME PATH '$[1]'"]
    + [f"{name} INT UNSIGNED PATH '$[{i}]'" for i, name in enumerate(MINUTE_FIELDS) if i > 1]
)
ADD_MINUTE_COUNTS = minute_counts_upsert(
    f"JSON_TABLE(%s, '$[*]' COLUMNS ({MINUTE_COLUMNS})) AS r",
    ", ".join(f"r.{name}" for name in MINUTE_FIELDS),
    "ON DUPLICATE KEY UPDATE",
    "minute_counts.{0} = minute_counts.{0} + VALUES({0})",
)

# Room in a packet for the statement around its JSON parameter.
STATEMENT_MARGIN = 64 * 1024


class MySQLQueue(SameShapeSteps):
    lock = " FOR UPDATE SKIP LOCKED"
    ARCHIVE_DELETE, ARCHIVE_DELETE_ATTEMPTS = ARCHIVE_DELETE, ARCHIVE_DELETE_ATTEMPTS
    DEAD_LETTER_IDS = DEAD_LETTER_IDS

    def horizon(self, seconds: float) -> tuple[str, list]:
        return "NOW(6) + INTERVAL %s SECOND", [seconds]

    def mark_running(self, cursor, keys: str, worker_id: str, margin: int) -> None:
        cursor.execute(MARK_RUNNING, [keys, worker_id, margin])

    def claimed_details(self, cursor, keys: str, worker_id: str) -> list[Row]:
        cursor.execute(CLAIMED_DETAILS, [keys, worker_id])
        return cursor.fetchall()

    def record_results(self, cursor, rows: str, worker_id: str) -> list:
        # The attempts first: the fence they share with the results holds until the update.
        cursor.execute(LOCK_FENCED, [rows, worker_id])
        fenced = list({row[0]: row for row in cursor.fetchall()}.values())
        cursor.execute(RECORD_ATTEMPTS, [rows, worker_id])
        cursor.execute(RECORD_RESULTS, [rows, worker_id])
        return fenced

    def add_minute_counts(self, cursor, rows: str) -> None:
        cursor.execute(ADD_MINUTE_COUNTS, [rows])

    def hand_back(self, cursor, rows: str, worker_id: str) -> int:
        cursor.execute(HAND_BACK, [rows, worker_id])
        return cursor.rowcount

    def expired_leases(self, cursor, batch_size: int) -> list[str]:
        """Lock up to `batch_size` running jobs whose lease ran out; their ids.

        Found through the wake index without locking (a locking range read there would also
        keep its boundary row, a live job, locked), then locked through the primary key
        with the expiry checked again. Rows an executor is writing right now are skipped:
        its result is about to settle them."""
        found = oldest_rows(cursor, "running", ("NOW(6)", []), batch_size)
        if not found:
            return []
        cursor.execute(LOCK_EXPIRED, [json.dumps([str(row[0]) for row in found])])
        return [str(row[0]) for row in cursor.fetchall()]

    def reconcile(self, cursor, batch_size: int) -> list[str]:
        expired = self.expired_leases(cursor, batch_size)
        if not expired:
            return []
        ids = json.dumps(expired)
        cursor.execute(EXPIRED_ATTEMPTS, [ids])
        cursor.execute(RECONCILE, [ids])
        return expired

    def parameter_limit(self, cursor) -> int:
        # The session's copy: the server holds each connection to the value it began with.
        cursor.execute("SELECT @@max_allowed_packet")
        return cursor.fetchone()[0] - STATEMENT_MARGIN

    def parameter_bytes(self, text: str) -> int:
        # The parameter travels inside the statement as a quoted literal: the driver escapes
        # each quote and backslash with one more byte.
        return len(text) + text.count('"') + text.count("\\") + text.count("'")
