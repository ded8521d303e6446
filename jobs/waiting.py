"""Releasing a buffered run (`waiting`, tasks/overlap.py) once its task has nothing unfinished.

A waiting job goes pending, due now but never before its own instant (held if its task is
paused, as a pause would have held it), in the same transaction as what finished the run
before it: the executor's results, the reconciler's last death of a lease, a cancel. Each
is one statement over the tasks of its batch, and reaches waiting rows through the wake
index's status prefix. The executor asks it only for the finished runs of buffer_one tasks
(the claim reads the task's policy), so the results of every other task cost nothing here.
The scheduler's sweep releases any waiting job whose task has nothing unfinished left (a
run that finished while the tick was making the buffered one, in two transactions neither
of which could see the other's row).
"""

from __future__ import annotations

import json
import uuid

from django.db import connection
from django.utils import timezone

from jobs.wake_index import PRIORITIES
from scheduler_site.sqltools import datetime_param, uuid_param

# What still runs or may run: the waiting job itself is not counted.
BEFORE_IT = "'pending', 'held', 'running', 'throttled'"

# A count, not NOT EXISTS: MariaDB turned that into a materialized anti-join, a scan of the
# whole jobs table; the count is a range of the run key per waiting row.
NOTHING_BEFORE_IT = f"""SELECT COUNT(*) FROM jobs AS u FORCE INDEX (jobs_task_run_uniq)
        WHERE u.task_id = w.task_id AND u.status IN ({BEFORE_IT})"""

BATCH_MYSQL = "JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$[0]'))"

RELEASE_MYSQL = f"""
UPDATE (
    SELECT DISTINCT j.tenant_id FROM {BATCH_MYSQL} AS r
    STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.id
) AS b
STRAIGHT_JOIN jobs AS w FORCE INDEX (jobs_wake_idx)
    ON w.status = 'waiting' AND w.priority IN ({PRIORITIES}) AND w.tenant_id = b.tenant_id
STRAIGHT_JOIN tasks AS t FORCE INDEX (PRIMARY) ON t.id = w.task_id
SET w.status = IF(t.status = 'paused', 'held', 'pending'),
    w.next_attempt_at = GREATEST(w.scheduled_at, NOW(6)), w.updated_at = NOW(6)
WHERE t.status <> 'deleted'
    AND w.task_id IN (
        SELECT k.task_id FROM {BATCH_MYSQL} AS q
        STRAIGHT_JOIN jobs AS k FORCE INDEX (PRIMARY) ON k.id = q.id)
    AND 0 = ({NOTHING_BEFORE_IT})
"""

SWEEP_MYSQL = f"""
UPDATE jobs AS w FORCE INDEX (jobs_wake_idx)
STRAIGHT_JOIN tasks AS t FORCE INDEX (PRIMARY) ON t.id = w.task_id
SET w.status = IF(t.status = 'paused', 'held', 'pending'),
    w.next_attempt_at = GREATEST(w.scheduled_at, NOW(6)), w.updated_at = NOW(6)
WHERE w.status = 'waiting' AND t.status <> 'deleted'
    AND 0 = ({NOTHING_BEFORE_IT})
"""

TASK_STATUS_SQLITE = "(SELECT status FROM tasks WHERE tasks.id = jobs.task_id)"

SWEEP_SQLITE = f"""
UPDATE jobs
SET status = CASE WHEN {TASK_STATUS_SQLITE} = 'paused' THEN 'held' ELSE 'pending' END,
    next_attempt_at = MAX(scheduled_at, %s), updated_at = %s
WHERE status = 'waiting' AND {TASK_STATUS_SQLITE} <> 'deleted'
    AND NOT EXISTS (
        SELECT 1 FROM jobs AS u WHERE u.task_id = jobs.task_id AND u.status IN ({BEFORE_IT}))
"""

RELEASE_SQLITE = (
    SWEEP_SQLITE
    + """    AND task_id IN (
        SELECT k.task_id FROM json_each(%s) AS q JOIN jobs AS k ON k.id = q.value ->> '$[0]')
"""
)


def release_after(cursor, batch: str) -> int:
    """Release the waiting jobs of the tasks of `batch` (a JSON list of rows, each starting
    with a job id as the database spells it) that have nothing unfinished left."""
    if connection.vendor == "mysql":
        cursor.execute(RELEASE_MYSQL, [batch, batch])
    else:
        now = datetime_param(timezone.now())
        cursor.execute(RELEASE_SQLITE, [now, now, batch])
    return cursor.rowcount


def release_jobs(cursor, job_keys: list) -> int:
    """release_after for a list of job ids."""
    keys = [uuid_param(key) if isinstance(key, uuid.UUID) else str(key) for key in job_keys]
    return release_after(cursor, json.dumps([[key] for key in keys]))


def release_stranded() -> int:
    """The backstop: every waiting job whose task has nothing unfinished is released."""
    with connection.cursor() as cursor:
        if connection.vendor == "mysql":
            cursor.execute(SWEEP_MYSQL)
        else:
            now = datetime_param(timezone.now())
            cursor.execute(SWEEP_SQLITE, [now, now])
        return cursor.rowcount
