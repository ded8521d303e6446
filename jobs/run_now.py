"""Run now: one run of a task outside its schedule (POST /v1/tasks/{id}/run, the admin).

The run is an ordinary job (same retries, DLQ, history and metrics) with its own id, which
is its Idempotency-Key at the endpoint. It is allowed for paused tasks and is not held by
a pause (jobs/holds.py), as hosted schedulers do with a forced run; a completed one-off task
may run again; a deleted task cannot (409). With an Idempotency-Key, a repeat of the request
answers with the job the first one made (a retry after a lost answer makes no second run).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.changes import jsonable
from audit.record import record
from history.records import HistoryRecord
from jobs.models import Job, RunNowKey
from jobs.selectors import job_get
from scheduler_site.errors import Conflict, NotFound, PreconditionFailed, Unprocessable
from scheduler_site.preconditions import ANY_VERSION
from tasks.critical_grant import job_priority
from tasks.models import Task, TaskStatus, Tenant
from tasks.overlap_job import forget_overlap_job
from tasks.rate_limit import take_creation_token
from tasks.tenants import refuse_if_stopped

ONE_MS = timedelta(milliseconds=1)
KEY_TRIES = 20


def run_instant(now: datetime, task: Task) -> datetime:
    """The run's `scheduled_at`: now, to the millisecond (what X-Scheduled-At and Cassandra
    carry), kept off every instant a scheduled run of the task can take, because the tick's
    insert of a run whose (task, scheduled_at) is taken is a silent no-op: cron runs fall on
    whole seconds, a one-off task's run on its run_at."""
    at = now.replace(microsecond=now.microsecond // 1000 * 1000)
    while at.microsecond == 0 or at in (task.run_at, task.next_run_at):
        at += ONE_MS
    return at


def task_run_now(
    *,
    tenant: Tenant,
    actor: str,
    task_id: uuid.UUID,
    idempotency_key: str | None = None,
    expected_version: int | None = ANY_VERSION,
) -> tuple[Job | HistoryRecord, bool]:
    """Create one pending job of the task due now; 404 unknown, 409 deleted or tenant
    stopped, 412 when `expected_version` (an If-Match sent) is not the task's, 429 rate.

    Returns the job and whether this call made it (False: a replay of the key's run).
    """
    _visible_task(tenant, task_id)
    refuse_if_stopped(tenant)
    if idempotency_key and (earlier := _replay(tenant, task_id, idempotency_key)):
        return earlier, False
    take_creation_token(tenant)  # a run by hand costs what a creation costs
    try:
        return _create(tenant, actor, task_id, idempotency_key, expected_version), True
    except IntegrityError:
        # Lost the race on UNIQUE (tenant_id, idempotency_key): answer with the winner's run.
        earlier = _replay(tenant, task_id, idempotency_key) if idempotency_key else None
        if earlier is None:
            raise
        return earlier, False


@transaction.atomic
def _create(
    tenant: Tenant,
    actor: str,
    task_id: uuid.UUID,
    idempotency_key: str | None,
    expected_version: int | None,
) -> Job:
    # Locked like a delete locks it: a run asked for during a delete either comes before it
    # (and is cancelled with the others) or sees the task deleted.
    task = Task.objects.select_for_update().filter(id=task_id).first()
    if task is None:
        raise NotFound("task not found")  # purged since it was looked up (storage_purge)
    if task.status == TaskStatus.DELETED:
        raise Conflict("the task was deleted; it cannot run", code="task_deleted")
    if expected_version is not ANY_VERSION and task.version != expected_version:
        raise PreconditionFailed(
            f"the task has changed: its version is {task.version}, not {expected_version}"
        )
    forget_overlap_job([task.id])  # a run beside the one the tick remembers
    job = insert_run(task, run_instant(timezone.now(), task))
    if idempotency_key:
        RunNowKey.objects.create(
            tenant_id=tenant.id, idempotency_key=idempotency_key, task_id=task.id, job_id=job.id
        )
    changes = {"job_id": str(job.id), "scheduled_at": jsonable(job.scheduled_at)}
    record(tenant_id=tenant.id, actor=actor, action="task.run", target=task.id, changes=changes)
    return job


def _replay(tenant: Tenant, task_id: uuid.UUID, key: str) -> Job | HistoryRecord | None:
    """The run an earlier request with this key made, if any (from the queue or history)."""
    earlier = RunNowKey.objects.filter(tenant_id=tenant.id, idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.task_id != task_id:
        raise Unprocessable(
            "this Idempotency-Key was already used to run another task",
            code="idempotency_key_reused",
        )
    try:
        return job_get(tenant=tenant, job_id=earlier.job_id)
    except NotFound as exc:
        raise Unprocessable(
            "this Idempotency-Key was used for a run that is no longer kept",
            code="idempotency_key_reused",
        ) from exc


def _visible_task(tenant: Tenant, task_id: uuid.UUID) -> None:
    if not Task.objects.filter(tenant=tenant, id=task_id).exists():
        raise NotFound("task not found")


def insert_run(task: Task, at: datetime) -> Job:
    """Insert the job, a millisecond later each time its (task, scheduled_at) is taken
    (another run now in the same millisecond, or a run already made at that instant)."""
    for _ in range(KEY_TRIES):
        job = _new_job(task, at)
        try:
            with transaction.atomic():
                job.save(force_insert=True)
            return job
        except IntegrityError:
            at = run_instant(at + ONE_MS, task)
    raise Conflict("too many runs of this task at once; try again", code="busy")


def _new_job(task: Task, at: datetime) -> Job:
    return Job(
        tenant_id=task.tenant_id,
        task_id=task.id,
        scheduled_at=at,
        next_attempt_at=at,
        priority=job_priority(task),
        max_attempts=task.max_attempts,
        timeout_seconds=task.timeout_seconds,
        backoff_base_seconds=task.backoff_base_seconds,
        run_now=True,
        labels=task.labels or None,
    )
