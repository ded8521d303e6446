"""Backfill: the runs of a task's scheduled instants in a past range, made now
(POST /v1/tasks/{id}/backfill).

Each run keeps its own scheduled_at (what X-Scheduled-At carries) and is due at once. An
instant runs at most once ever: one still in the jobs table is a no-op of the run key, one
archived since is found in the history store and left alone. The reads and the insert are
made under the task's row lock, jobs first, history second: the archiver writes the history
before it deletes, so a run gone from the jobs table by the first read is in the history by
the second, and one seen in the jobs table is never inserted again.

Backfilled runs are asked for by hand, like run now (jobs.run_now): they go out while the
task is paused, ignore the overlap policy, and do not count toward max_runs. The request
costs one creation token whatever the number of runs, as run now does: the 1,000-instant
cap bounds it, and a charge per run would refuse every backfill larger than the burst.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from audit.changes import jsonable
from audit.record import record
from jobs.backfill_history import archived_instants
from jobs.backfill_range import BackfillRange, scheduled_instants
from jobs.backfill_sql import insert_backfill_jobs
from jobs.models import Job
from scheduler_site.errors import Conflict, NotFound
from scheduler_site.ids import new_id
from tasks.models import Task, TaskStatus, Tenant
from tasks.overlap_job import forget_overlap_job
from tasks.rate_limit import take_creation_token
from tasks.tenants import refuse_if_stopped


@dataclass(frozen=True)
class Backfilled:
    made: int  # runs this request made
    existing: int  # instants whose run existed already (queued or archived)

    @property
    def instants(self) -> int:
        return self.made + self.existing


@transaction.atomic
def task_backfill(
    *, tenant: Tenant, actor: str, task_id: uuid.UUID, window: BackfillRange
) -> Backfilled:
    """Make the missing runs of the task's instants in the window; 404 unknown, 409 deleted,
    stopped tenant or no schedule, 400 over the limit, 429 rate, 503 history down."""
    task = _locked_task(tenant, task_id)
    refuse_if_stopped(tenant)
    instants = scheduled_instants(task, window)
    queued = _queued_instants(task, window)
    archived = archived_instants(task, window)  # second: see the module's docstring
    missing = [at for at in instants if at not in queued and at not in archived]
    # Charged once everything that can refuse it has answered (a 503 costs nothing).
    take_creation_token(tenant)  # a backfill by hand costs what a creation costs
    made = _insert(task, missing)
    done = Backfilled(made=made, existing=len(instants) - made)
    if made:  # a repeat that made nothing changed nothing: no entry
        record(
            tenant_id=tenant.id,
            actor=actor,
            action="task.backfill",
            target=task.id,
            changes=_entry(window, done),
        )
    return done


def _entry(window: BackfillRange, done: Backfilled) -> dict:
    return {
        "start": jsonable(window.start),
        "end": jsonable(window.end),
        "made": done.made,
        "existing": done.existing,
        "instants": done.instants,
    }


def _locked_task(tenant: Tenant, task_id: uuid.UUID) -> Task:
    # Locked as run now locks it: a backfill during a delete comes before it (its runs are
    # cancelled with the others) or sees the task deleted; the tick skips a locked task.
    task = Task.objects.select_for_update().filter(tenant=tenant, id=task_id).first()
    if task is None:
        raise NotFound("task not found")
    if task.status == TaskStatus.DELETED:
        raise Conflict("the task was deleted; it cannot run", code="task_deleted")
    if task.is_one_off:
        raise Conflict(
            "a one-off task (run_at) has no scheduled instants to backfill; use run now",
            code="not_recurring",
        )
    return task


def _queued_instants(task: Task, window: BackfillRange) -> set[datetime]:
    in_range = Job.objects.filter(
        task_id=task.id, scheduled_at__gte=window.start, scheduled_at__lt=window.end
    )
    return set(in_range.values_list("scheduled_at", flat=True))


def _insert(task: Task, instants: list[datetime]) -> int:
    """Insert every run in one statement; returns how many of them are in the table now
    (exact whatever raced: a run key taken meanwhile leaves its row out)."""
    if not instants:
        return 0
    rows = [(new_id(), at) for at in instants]
    with connection.cursor() as cursor:
        insert_backfill_jobs(cursor, task_id=task.id, rows=rows, now=timezone.now())
    forget_overlap_job([task.id])  # runs beside the one the tick remembers
    return Job.objects.filter(id__in=[job_id for job_id, _ in rows]).count()
