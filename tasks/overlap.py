"""The overlap policy: what becomes of a run due while an earlier run of its task is unfinished.

`allow` makes it anyway; `skip` does not make it (the skipped-run ledger records it, reason
`overlap`); `buffer_one` makes it `waiting` if none waits yet (jobs/waiting.py releases it the
moment the earlier run finishes), else skips it too. In every case next_run_at advances as
the schedule says: a skip never holds the schedule back.

The tick asks once for all its due tasks whose policy is not `allow` (none: no statement),
through the run key (task_id, scheduled_at). Only unfinished rows are wanted, but a task's
finished jobs stay in the table until archived (a minute cron keeps about 60) and the key
has no status: so each task is read from its `overlap_floor` on, the instant before which
none of its jobs is unfinished, which the tick moves up as its runs finish
(tasks/overlap_floor.py). A task is then read in one or two rows, whatever it keeps.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, NamedTuple

from django.db import connection

from jobs.models import JobStatus
from scheduler_site.sqltools import datetime_from_db, datetime_param
from tasks import sql
from tasks.models import OverlapPolicy, SkipReason
from tasks.skip_ledger import Skip

if TYPE_CHECKING:
    from tasks.tick import RunPlan

UNFINISHED_SQL = "'pending', 'held', 'running', 'waiting'"

# The unfinished jobs of the given tasks (a few per busy task; none for most), ungrouped:
# a GROUP BY cost a temporary table and a sort on every tick for nothing.
BUSY_MYSQL = f"""
SELECT j.task_id, j.status, j.scheduled_at
FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    task_id CHAR(36) PATH '$[0]',
    floor DATETIME(6) PATH '$[1]')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (jobs_task_run_uniq)
    ON j.task_id = r.task_id AND j.scheduled_at >= r.floor
WHERE j.status IN ({UNFINISHED_SQL})
"""

BUSY_SQLITE = f"""
SELECT j.task_id, j.status, j.scheduled_at
FROM json_each(%s) AS r
JOIN jobs AS j ON j.task_id = r.value ->> '$[0]' AND j.scheduled_at >= r.value ->> '$[1]'
WHERE j.status IN ({UNFINISHED_SQL})
"""

# A task whose floor is not known is read whole (once: the tick then sets it).
NO_FLOOR = "0001-01-01 00:00:00"


class Busy(NamedTuple):
    """What the tick knows of a task's unfinished runs."""

    waiting: bool  # one of them is a buffered run
    oldest: datetime  # the earliest scheduled of them


def decided_now(due: list[sql.DueTask], now: datetime) -> list[sql.DueTask]:
    """The due tasks the tick plans now: a skip or buffer_one run is judged when it is due,
    not in the lookahead before it (the run before it may still be about to start); it
    stays locked and unchanged until a tick at or after its instant."""
    return [task for task in due if task.overlap == OverlapPolicy.ALLOW or task.next_run_at <= now]


def busy_tasks(cursor, due: list[sql.DueTask]) -> dict[str, Busy]:
    """The due tasks (of a policy other than allow) that have an unfinished run, by id."""
    rows = [
        (task.id, datetime_param(task.overlap_floor) if task.overlap_floor else NO_FLOOR)
        for task in due
        if task.overlap != OverlapPolicy.ALLOW
    ]
    if not rows:
        return {}
    statement = BUSY_MYSQL if connection.vendor == "mysql" else BUSY_SQLITE
    cursor.execute(statement, [json.dumps(rows)])
    busy: dict[str, Busy] = {}
    for task_id, status, scheduled_at in cursor.fetchall():
        scheduled_at = datetime_from_db(scheduled_at)
        known = busy.get(task_id)
        if known is None:
            busy[task_id] = Busy(status == JobStatus.WAITING, scheduled_at)
        else:
            waiting = known.waiting or status == JobStatus.WAITING
            busy[task_id] = Busy(waiting, min(known.oldest, scheduled_at))
    return busy


def floor_after(task: sql.DueTask, busy: dict[str, Busy]) -> datetime | None:
    """The task's overlap_floor after this tick: its oldest unfinished run, or, with none,
    the run due now (the tick makes every later run after it); not kept under allow."""
    if task.overlap == OverlapPolicy.ALLOW:
        return None
    found = busy.get(task.id)
    return found.oldest if found is not None else task.next_run_at


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
