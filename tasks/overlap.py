"""The overlap policy: what becomes of a run due while an earlier run of its task is unfinished.

`allow` makes it anyway; `skip` does not make it (the skipped-run ledger records it, reason
`overlap`); `buffer_one` makes it `waiting` if none waits yet (jobs/waiting.py releases it the
moment the earlier run finishes), else skips it too. In every case next_run_at advances as
the schedule says: a skip never holds the schedule back.

The tick asks for all its due tasks whose policy is not `allow` at once (none: no statement;
at most two statements, never one per task).
A task remembers its newest run when that run alone can be unfinished (`overlap_job_id`:
under skip no run is made beside an unfinished one, and a buffered run waits only behind
one), so the tick reads that one job by its primary key, not the finished jobs a task keeps
until they are archived (a minute cron keeps about 60). A task that remembers none (its
first tick, or after a run now, a backfill or a retry made a job out of the schedule's
order: tasks/overlap_job.py), or whose remembered run was cancelled (a waiting run can be,
while the run before it goes on) or is gone from the table (archived, or a run the tick's
insert found already made), is read through the run key's task_id prefix, whole.
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
    from datetime import datetime

    from tasks.tick import RunPlan

UNFINISHED = ("pending", "held", "running", "waiting", "throttled")
UNFINISHED_SQL = ", ".join(f"'{status}'" for status in UNFINISHED)

# Both read flat JSON lists of ids (a list of pairs costs twice as much to read) and return
# the unfinished rows ungrouped (a GROUP BY cost a temporary table and a sort per tick).
# The remembered runs whatever their status: a cancelled or missing one says nothing.
BY_JOB_MYSQL = """
SELECT j.task_id, j.status, j.id
FROM JSON_TABLE(%s, '$[*]' COLUMNS (job_id CHAR(36) PATH '$')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY) ON j.id = r.job_id
"""
BY_TASK_MYSQL = f"""
SELECT j.task_id, j.status, j.id
FROM JSON_TABLE(%s, '$[*]' COLUMNS (task_id CHAR(36) PATH '$')) AS r
STRAIGHT_JOIN jobs AS j FORCE INDEX (jobs_task_run_uniq) ON j.task_id = r.task_id
WHERE j.status IN ({UNFINISHED_SQL})
"""
BY_JOB_SQLITE = """
SELECT j.task_id, j.status, j.id FROM json_each(%s) AS r JOIN jobs AS j ON j.id = r.value
"""
BY_TASK_SQLITE = f"""
SELECT j.task_id, j.status, j.id FROM json_each(%s) AS r JOIN jobs AS j ON j.task_id = r.value
WHERE j.status IN ({UNFINISHED_SQL})
"""


class Busy(NamedTuple):
    """A task's unfinished runs as the tick found them: (status, job id as the database
    spells it) each."""

    runs: tuple[tuple[str, str], ...]

    @property
    def waiting(self) -> bool:  # one of them is a buffered run
        return any(status == JobStatus.WAITING for status, _ in self.runs)


def decided_now(due: list[sql.DueTask], now: datetime) -> list[sql.DueTask]:
    """The due tasks the tick plans now: a skip or buffer_one run is judged when it is due,
    not in the lookahead before it (the run before it may still be about to start); it
    stays locked and unchanged until a tick at or after its instant."""
    return [task for task in due if task.overlap == OverlapPolicy.ALLOW or task.next_run_at <= now]


def busy_tasks(cursor, due: list[sql.DueTask]) -> dict[str, Busy]:
    """The due tasks (of a policy other than allow) that have an unfinished run, by id."""
    checked = [task for task in due if task.overlap != OverlapPolicy.ALLOW]
    mysql = connection.vendor == "mysql"
    found: dict[str, list] = {}
    remembered = [task for task in checked if task.overlap_job_id]
    told = set()  # the tasks their remembered run speaks for
    if remembered:
        ids = [task.overlap_job_id for task in remembered]
        cursor.execute(BY_JOB_MYSQL if mysql else BY_JOB_SQLITE, [json.dumps(ids)])
        for task_id, status, job_id in cursor.fetchall():
            if status == JobStatus.CANCELLED:
                continue
            told.add(_spelled(task_id))
            if status in UNFINISHED:
                found.setdefault(_spelled(task_id), []).append((status, _spelled(job_id)))
    whole = [task.id for task in checked if task.id not in told]
    if whole:
        cursor.execute(BY_TASK_MYSQL if mysql else BY_TASK_SQLITE, [json.dumps(whole)])
        for task_id, status, job_id in cursor.fetchall():
            found.setdefault(_spelled(task_id), []).append((status, _spelled(job_id)))
    return {task_id: Busy(tuple(runs)) for task_id, runs in found.items()}


def _spelled(value) -> str:
    """An id as the tick's rows spell it (the due read's own spelling of the same column)."""
    return value if isinstance(value, str) else str(value)


def job_to_remember(task: sql.DueTask, busy: dict[str, Busy], made: str | None) -> str | None:
    """The run the task remembers after this tick: the one made now (the newest: under
    buffer_one a waiting run stands behind the unfinished one), else its one unfinished run,
    or the waiting one of two; none when that cannot tell the task's state alone."""
    if task.overlap == OverlapPolicy.ALLOW:
        return None
    if made is not None:
        return made
    runs = busy[task.id].runs if task.id in busy else ()
    if len(runs) == 1:
        return runs[0][1]
    waiting = [job_id for status, job_id in runs if status == JobStatus.WAITING]
    return waiting[0] if len(runs) == 2 and waiting else None


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
