"""What the executor needs to call the callbacks a claim took: the claim's own read joins
each run to its task, which a callback does not have; its target is in `callbacks`.

The columns are the claim's (jobs/queue/mysql.py CLAIMED_DETAILS): a callback is a POST of
its JSON body, signed like a run, to be called whatever its task's state (its task status
reads 'active'), and it has no overlap and no callbacks of its own.
"""

from __future__ import annotations

from django.db import connection

from jobs.models import CALLBACK_PRIORITY

COLUMNS = """
SELECT j.id, j.tenant_id, j.task_id, j.scheduled_at, j.attempt, j.max_attempts,
    j.next_attempt_at, j.timeout_seconds, j.backoff_base_seconds, j.priority,
    c.url, 'POST', NULL, c.body, NULL, n.signing_secret, 'active',
    j.lease_expires_at, n.previous_signing_secret, n.previous_signing_secret_until, j.run_now,
    0, 0"""

MYSQL = f"""{COLUMNS}
FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$')) AS k
STRAIGHT_JOIN jobs AS j ON j.id = k.id
JOIN callbacks AS c ON c.job_id = j.id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.status = 'running' AND j.worker_id = %s AND j.priority = {CALLBACK_PRIORITY}
"""

SQLITE = f"""{COLUMNS}
FROM jobs AS j
JOIN callbacks AS c ON c.job_id = j.id
JOIN tenants AS n ON n.id = j.tenant_id
WHERE j.id IN (SELECT value FROM json_each(%s)) AND j.status = 'running' AND j.worker_id = %s
    AND j.priority = {CALLBACK_PRIORITY}
"""


def claimed_callbacks(cursor, keys: str, worker_id: str) -> list[tuple]:
    """The claimed callbacks among `keys` (a JSON list of ids), as the claim's rows."""
    cursor.execute(MYSQL if connection.vendor == "mysql" else SQLITE, [keys, worker_id])
    return cursor.fetchall()
