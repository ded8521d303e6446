"""The overlap policy: what becomes of a run due while an earlier run of its task is unfinished.

`allow` makes it anyway; `skip` does not make it (the skipped-run ledger records it, reason
`overlap`); `buffer_one` makes it `waiting` if none waits yet (jobs/waiting.py releases it the
moment the earlier run finishes), else skips it too. In every case next_run_at advances as
the schedule says: a skip never holds the schedule back.

The tick asks once for all its due tasks whose policy is not `allow` (none: no statement),
through the run key's task_id prefix. Only unfinished rows are wanted, but a task's finished
jobs stay in the table until archived: the status test is made on the rows the key finds.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, NamedTuple

from django.db import connection

from jobs.models import JobStatus
from tasks import sql
from tasks.models import OverlapPolicy, SkipReason
from tasks.skip_ledger import Skip

if TYPE_CHECKING:
    from tasks.tick import RunPlan

UNFINISHED_SQL = "'pending', 'held', 'running', 'waiting'"

# The unfinished jobs of the given tasks (a few per busy task; none for most), ungrouped:
# a GROUP BY cost a temporary table and a sort on every tick for nothing.
BUSY_MYSQL = f"""
SELECT j.task_id, j.status
FROM JSON_TABLE(%s, '$[*]' COLUMNS (task_id CHAR(36) PATH '$')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (jobs_task_run_uniq) ON j.task_id = r.task_id
WHERE j.status IN ({UNFINISHED_SQL})
"""

BUSY_SQLITE = f"""
SELECT j.task_id, j.status
FROM json_each(%s) AS r
JOIN jobs AS j ON j.task_id = r.value
WHERE j.status IN ({UNFINISHED_SQL})
"""


class Busy(NamedTuple):
    """What the tick knows of a task's unfinished runs."""

    waiting: bool  # one of them is a buffered run


def busy_tasks(cursor, due: list[sql.DueTask]) -> dict[str, Busy]:
    """The due tasks (of a policy other than allow) that have an unfinished run, by id."""
    ids = [task.id for task in due if task.overlap != OverlapPolicy.ALLOW]
    if not ids:
        return {}
    statement = BUSY_MYSQL if connection.vendor == "mysql" else BUSY_SQLITE
    cursor.execute(statement, [json.dumps(ids)])
    busy: dict[str, Busy] = {}
    for task_id, status in cursor.fetchall():
        busy[task_id] = Busy(busy.get(task_id, Busy(False)).waiting or status == JobStatus.WAITING)
    return busy


def with_overlap(plan: RunPlan, task: sql.DueTask, busy: dict[str, Busy]) -> tuple[RunPlan, str]:
    """The tick's plan for `task` under its policy, and the status of the job it makes."""
    found = busy.get(task.id)
    if plan.scheduled_at is None or found is None or task.overlap == OverlapPolicy.ALLOW:
        return plan, JobStatus.PENDING
    if task.overlap == OverlapPolicy.BUFFER_ONE and not found.waiting:
        return plan, JobStatus.WAITING
    due = plan.scheduled_at
    skip = Skip(task.id, SkipReason.OVERLAP, due, due, 1)
    # The due instant is the step's first: its skip goes before any the step already has.
    return plan._replace(scheduled_at=None, skips=(skip, *plan.skips)), JobStatus.PENDING
