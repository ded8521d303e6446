"""The one statement of a backfill: every missing run of one task inserted at once.

The rows come as one JSON parameter, as in the tick's insert (tasks/sql.py), and take their
delivery settings and priority from the task row as the tick's do. Unlike the tick's, each
row keeps its own scheduled_at, is due at once and is marked as asked by hand (run_now).
A run key already taken is a no-op, never an error.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime

from django.db import connection

from scheduler_site.sqltools import datetime_param, uuid_param
from tasks.critical_grant import JOB_PRIORITY_SQL
from tasks.labels import JOB_LABELS_SQL

COLUMNS = """INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,
    max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, run_now, labels,
    created_at, updated_at)"""

VALUES = f"""{JOB_PRIORITY_SQL}, 'pending', 0, t.max_attempts, %s, t.timeout_seconds,
    t.backoff_base_seconds, TRUE, {JOB_LABELS_SQL}, %s, %s"""

INSERT_MYSQL = f"""{COLUMNS}
SELECT r.job_id, t.tenant_id, t.id, r.scheduled_at, {VALUES}
FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    job_id CHAR(36) PATH '$[0]',
    scheduled_at DATETIME(6) PATH '$[1]')) AS r
JOIN tasks AS t ON t.id = %s
ON DUPLICATE KEY UPDATE jobs.id = jobs.id
"""

INSERT_SQLITE = f"""{COLUMNS}
SELECT r.value ->> '$[0]', t.tenant_id, t.id, r.value ->> '$[1]', {VALUES}
FROM json_each(%s) AS r
JOIN tasks AS t ON t.id = %s
WHERE true
ON CONFLICT (task_id, scheduled_at) DO NOTHING
"""

STATEMENTS = {"mysql": INSERT_MYSQL, "sqlite": INSERT_SQLITE}


def insert_backfill_jobs(
    cursor, *, task_id: uuid.UUID, rows: list[tuple[uuid.UUID, datetime]], now: datetime
) -> None:
    """Insert a job (job id, scheduled_at) of the task for each row, due `now`."""
    stamp = datetime_param(now)
    encoded = json.dumps([[uuid_param(job_id), datetime_param(at)] for job_id, at in rows])
    cursor.execute(
        STATEMENTS[connection.vendor], [stamp, stamp, stamp, encoded, uuid_param(task_id)]
    )
