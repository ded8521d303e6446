"""The two statements that put a batch of callbacks in the queue, set-based: the batch is
one JSON parameter (rows of job id, tenant id, due time, task id, origin job id, event, url,
body), read by JSON_TABLE (MariaDB) or json_each (SQLite), as the tick's insert does.

A result round of the executor makes up to a batch of callbacks at once; built row by row
through the ORM they cost the executor more Python time than the round's own statements.
"""

from __future__ import annotations

from jobs.models import CALLBACK_PRIORITY

JOB_COLUMNS = """INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status,
    attempt, max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, created_at,
    updated_at)"""

# Every callback job: its own id as its task id (a run key no run has), due at its time.
JOB_VALUES = f"""{CALLBACK_PRIORITY}, 'pending', 0, %s, {{due}}, %s, %s, %s, %s"""

TARGET_COLUMNS = """INSERT INTO callbacks (job_id, tenant_id, task_id, origin_job_id, event,
    url, body, created_at)"""

ROWS_MYSQL = """JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]',
    tenant_id CHAR(36) PATH '$[1]',
    due_at DATETIME(6) PATH '$[2]',
    task_id CHAR(36) PATH '$[3]',
    origin_job_id CHAR(36) PATH '$[4]',
    event VARCHAR(16) PATH '$[5]',
    url VARCHAR(2048) PATH '$[6]',
    body LONGTEXT PATH '$[7]')) AS r"""

JOBS_MYSQL = f"""{JOB_COLUMNS}
SELECT r.id, r.tenant_id, r.id, r.due_at, {JOB_VALUES.format(due="r.due_at")}
FROM {ROWS_MYSQL}"""

TARGETS_MYSQL = f"""{TARGET_COLUMNS}
SELECT r.id, r.tenant_id, r.task_id, r.origin_job_id, r.event, r.url, r.body, %s
FROM {ROWS_MYSQL}"""

JOBS_SQLITE = f"""{JOB_COLUMNS}
SELECT r.value ->> '$[0]', r.value ->> '$[1]', r.value ->> '$[0]', r.value ->> '$[2]',
    {JOB_VALUES.format(due="r.value ->> '$[2]'")}
FROM json_each(%s) AS r"""

TARGETS_SQLITE = f"""{TARGET_COLUMNS}
SELECT r.value ->> '$[0]', r.value ->> '$[1]', r.value ->> '$[3]', r.value ->> '$[4]',
    r.value ->> '$[5]', r.value ->> '$[6]', r.value ->> '$[7]', %s
FROM json_each(%s) AS r"""

# vendor -> (jobs statement, targets statement)
STATEMENTS = {"mysql": (JOBS_MYSQL, TARGETS_MYSQL), "sqlite": (JOBS_SQLITE, TARGETS_SQLITE)}
