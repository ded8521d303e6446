"""The jobs a result batch (or the reconciler) just finished, read for their callbacks in
one statement: each job with its task's name and callback URLs and its tenant's alert URL.

Only runs count (a callback job never has callbacks of its own), and only those succeeded
or dead now; given a worker, only the ones it holds, so a stale result it sent (fenced off)
makes none.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable

from django.db import connection

from jobs.models import CALLBACK_PRIORITY
from scheduler_site.sqltools import datetime_from_db, uuid_from_db

# The attempts made are the job's rows in job_attempts (a range of their key's prefix), not
# its attempt column: a claim handed back unfired moved the column and made no attempt.
COLUMNS = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.status,
    (SELECT COUNT(*) FROM job_attempts AS a WHERE a.job_id = j.id), j.http_status,
    j.error, j.duration_ms, j.finished_at, j.response_body,
    COALESCE(t.name, ''), t.on_success_url, t.on_failure_url, n.on_failure_url"""

FILTER = f"""j.status IN ('succeeded', 'dead') AND j.priority <> {CALLBACK_PRIORITY}
    AND (%s IS NULL OR j.worker_id = %s)"""

MYSQL = f"""{COLUMNS}
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS k
STRAIGHT_JOIN jobs AS j ON j.id = k.id
LEFT JOIN tasks AS t ON t.id = j.task_id
LEFT JOIN tenants AS n ON n.id = j.tenant_id
WHERE {FILTER}"""

SQLITE = f"""{COLUMNS}
FROM jobs AS j
LEFT JOIN tasks AS t ON t.id = j.task_id
LEFT JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.id IN (SELECT value FROM json_each(%s)) AND {FILTER}"""


def finished_jobs(ids: Iterable[str], worker_id: str | None) -> list[tuple]:
    """Rows of (id, tenant_id, task_id, scheduled_at, status, attempts made, http_status, error,
    duration_ms, finished_at, response_body, task name, on_success_url, on_failure_url,
    the tenant's on_failure_url) for the jobs `ids` (canonical text)."""
    if connection.features.has_native_uuid_field:  # canonical text is the column's spelling
        keys = json.dumps(list(ids))
    else:
        keys = json.dumps([uuid.UUID(job_id).hex for job_id in ids])
    with connection.cursor() as cursor:
        cursor.execute(
            MYSQL if connection.vendor == "mysql" else SQLITE, [keys, worker_id, worker_id]
        )
        return [_typed(row) for row in cursor.fetchall()]


def _typed(row: tuple) -> tuple:
    """The row as the ORM would give it: UUIDs and aware datetimes."""
    ids = tuple(uuid_from_db(value) for value in row[:3])
    return (*ids, datetime_from_db(row[3]), *row[4:9], datetime_from_db(row[9]), *row[10:])
