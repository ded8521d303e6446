"""All raw SQL of the queue (the jobs table), for MySQL/MariaDB and for SQLite.

Every state change is a guarded UPDATE. Batches travel as one JSON parameter (JSON_TABLE on
MySQL, json_each on SQLite) and updates reach their rows through the primary key: a batched
fenced UPDATE that MariaDB planned on the status index deadlocked in the measurements.
"""

from __future__ import annotations

# --- claim: pending -> running --------------------------------------------------------------

# Which tenants have due jobs at which priority, and the oldest due time of each: one row
# per (priority, tenant). The claim index leads (status, priority, tenant_id,
# next_attempt_at), so MariaDB can read this with a loose index scan, one jump per group,
# however many jobs a group holds. It only considers that scan for a range on status:
# with `status = 'pending'` it walks every pending entry instead, hence the BETWEEN.
DUE_TENANTS = """
SELECT priority, tenant_id, MIN(next_attempt_at) FROM jobs
WHERE status BETWEEN 'pending' AND 'pending' AND next_attempt_at <= {horizon}
GROUP BY status, priority, tenant_id
"""

# One tight range per (priority, tenant) the fair share asks of, each stopping at its LIMIT
# (a range over next_attempt_at alone would walk every not-yet-due row before it).
CLAIM_PART = """
SELECT * FROM (
    SELECT id, tenant_id, priority, next_attempt_at FROM jobs
    WHERE status = 'pending' AND priority = {priority} AND tenant_id = %s
        AND next_attempt_at <= {horizon}
    ORDER BY next_attempt_at LIMIT %s{lock}
) AS c{index}"""

TENANT_BUDGETS = """
SELECT n.id, n.concurrency_limit,
    (SELECT COUNT(*) FROM jobs AS j WHERE j.tenant_id = n.id AND j.status = 'running')
FROM tenants AS n WHERE n.id IN ({placeholders})
"""

MARK_RUNNING_MYSQL = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = c.id
SET j.status = 'running', j.worker_id = %s, j.attempt = j.attempt + 1,
    j.started_at = NOW(6), j.updated_at = NOW(6),
    j.lease_expires_at = GREATEST(j.next_attempt_at, NOW(6))
        + INTERVAL (j.timeout_seconds + %s) SECOND
WHERE j.status = 'pending'
"""

MARK_RUNNING_SQLITE = """
UPDATE jobs
SET status = 'running', worker_id = %s, attempt = attempt + 1, started_at = %s, updated_at = %s,
    lease_expires_at = strftime('%%Y-%%m-%%d %%H:%%M:%%f', max(next_attempt_at, %s),
        '+' || (timeout_seconds + %s) || ' seconds')
WHERE id IN (SELECT value FROM json_each(%s)) AND status = 'pending'
"""

# The task's status as the executor should read it: a run-now job goes out even while its
# task is paused (so to the executor its task counts as active); a deleted task stops it.
TASK_STATUS = "CASE WHEN j.run_now AND t.status = 'paused' THEN 'active' ELSE t.status END"

CLAIMED_DETAILS_MYSQL = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority,
    t.url, t.method, t.headers, t.body, t.secret_ref, n.signing_secret, {TASK_STATUS},
    j.lease_expires_at, n.previous_signing_secret, n.previous_signing_secret_until
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS c
STRAIGHT_JOIN jobs AS j ON j.id = c.id
JOIN tasks AS t ON t.id = j.task_id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.status = 'running' AND j.worker_id = %s
""".replace("{TASK_STATUS}", TASK_STATUS)

CLAIMED_DETAILS_SQLITE = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority,
    t.url, t.method, t.headers, t.body, t.secret_ref, n.signing_secret, {TASK_STATUS},
    j.lease_expires_at, n.previous_signing_secret, n.previous_signing_secret_until
FROM jobs AS j
JOIN tasks AS t ON t.id = j.task_id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.id IN (SELECT value FROM json_each(%s)) AND j.status = 'running' AND j.worker_id = %s
""".replace("{TASK_STATUS}", TASK_STATUS)

# --- result: running -> succeeded / pending (retry) / dead, fenced by worker and attempt ----

RESULT_COLUMNS = """
    id CHAR(36) PATH '$[0]',
    attempt INT PATH '$[1]',
    status VARCHAR(16) PATH '$[2]',
    next_attempt_at DATETIME(6) PATH '$[3]',
    finished_at DATETIME(6) PATH '$[4]',
    http_status INT PATH '$[5]',
    error VARCHAR(500) PATH '$[6]',
    response_body TEXT PATH '$[7]',
    duration_ms INT PATH '$[8]'"""

RECORD_RESULTS_MYSQL = f"""
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS ({RESULT_COLUMNS})) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
SET j.status = r.status,
    j.next_attempt_at = COALESCE(r.next_attempt_at, j.next_attempt_at),
    j.finished_at = r.finished_at,
    j.http_status = r.http_status,
    j.error = r.error,
    j.response_body = r.response_body,
    j.duration_ms = r.duration_ms,
    j.lease_expires_at = NULL,
    j.worker_id = IF(r.status = 'pending', NULL, j.worker_id),
    j.updated_at = NOW(6)
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
"""

RECORD_RESULTS_SQLITE = """
UPDATE jobs
SET status = r.value ->> '$[2]',
    next_attempt_at = COALESCE(r.value ->> '$[3]', jobs.next_attempt_at),
    finished_at = r.value ->> '$[4]',
    http_status = r.value ->> '$[5]',
    error = r.value ->> '$[6]',
    response_body = r.value ->> '$[7]',
    duration_ms = r.value ->> '$[8]',
    lease_expires_at = NULL,
    worker_id = CASE WHEN r.value ->> '$[2]' = 'pending' THEN NULL ELSE jobs.worker_id END,
    updated_at = %s
FROM json_each(%s) AS r
WHERE jobs.id = r.value ->> '$[0]' AND jobs.status = 'running' AND jobs.worker_id = %s
    AND jobs.attempt = r.value ->> '$[1]'
"""

# --- hand back: running -> pending (or held) for claimed jobs that were never fired -------
# The attempt stays (a stale write carrying it can never match again once the next claim
# raises it) and max_attempts grows by one, so the hand-back charges no attempt. A job of a
# task paused meanwhile goes back as held.

HAND_BACK_MYSQL = """
UPDATE JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', attempt INT PATH '$[1]', status VARCHAR(16) PATH '$[2]')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
SET j.status = r.status, j.worker_id = NULL, j.lease_expires_at = NULL, j.started_at = NULL,
    j.max_attempts = j.max_attempts + 1, j.updated_at = NOW(6)
WHERE j.status = 'running' AND j.worker_id = %s AND j.attempt = r.attempt
"""

HAND_BACK_SQLITE = """
UPDATE jobs
SET status = r.value ->> '$[2]', worker_id = NULL, lease_expires_at = NULL, started_at = NULL,
    max_attempts = max_attempts + 1, updated_at = %s
FROM json_each(%s) AS r
WHERE jobs.id = r.value ->> '$[0]' AND jobs.status = 'running' AND jobs.worker_id = %s
    AND jobs.attempt = r.value ->> '$[1]'
"""

# --- reconcile: running -> pending / dead when the lease expired ----------------------------
# The claim already counted the attempt, so it is not counted again here.

RECONCILE_MYSQL = """
UPDATE jobs
SET status = IF(attempt >= max_attempts, 'dead', 'pending'),
    next_attempt_at = NOW(6),
    finished_at = IF(attempt >= max_attempts, NOW(6), NULL),
    error = 'lease expired', worker_id = NULL, lease_expires_at = NULL, updated_at = NOW(6)
WHERE status = 'running' AND lease_expires_at < NOW(6)
LIMIT %s
"""

RECONCILE_SQLITE = """
UPDATE jobs
SET status = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'pending' END,
    next_attempt_at = %s,
    finished_at = CASE WHEN attempt >= max_attempts THEN %s ELSE NULL END,
    error = 'lease expired', worker_id = NULL, lease_expires_at = NULL, updated_at = %s
WHERE id IN (
    SELECT id FROM jobs WHERE status = 'running' AND lease_expires_at < %s LIMIT %s
)
"""
