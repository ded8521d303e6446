"""Job use cases that change a job's state (each one a guarded UPDATE)."""

from __future__ import annotations

import uuid

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from audit.record import record
from jobs.models import Job, JobStatus
from jobs.tenant_jobs import tenant_runs
from jobs.waiting import release_jobs
from scheduler_site.errors import Conflict, NotFound
from tasks.models import Task, TaskStatus, Tenant
from tasks.overlap_job import forget_overlap_job
from tasks.tenants import refuse_if_stopped

WAITING = (JobStatus.PENDING, JobStatus.HELD, JobStatus.WAITING, JobStatus.THROTTLED)
ERROR_LENGTH = Job._meta.get_field("error").max_length


def jobs_cancel_pending_for_task(*, task_id: uuid.UUID) -> int:
    """Cancel every job of a task that has not been claimed yet; returns how many."""
    now = timezone.now()
    return Job.objects.filter(task_id=task_id, status__in=WAITING).update(
        status=JobStatus.CANCELLED, finished_at=now, updated_at=now, error="task deleted"
    )


@transaction.atomic
def job_retry(*, tenant: Tenant, actor: str, job_id: uuid.UUID) -> Job:
    """dead -> pending, same id and scheduled_at, with a fresh budget of attempts.

    The attempt number (the fencing token) never goes down: the budget grows instead.
    """
    job = _job_in_queue(tenant, job_id)
    refuse_if_stopped(tenant)
    task = Task.objects.filter(id=job.task_id).values("max_attempts", "status").first()
    if task is None or task.get("status") == TaskStatus.DELETED:
        raise Conflict("the task of this job was deleted; it cannot run again", code="task_deleted")
    budget = task["max_attempts"]
    now = timezone.now()
    forget_overlap_job([job.task_id])  # unfinished again beside the run the tick remembers
    updated = Job.objects.filter(id=job.id, tenant=tenant, status=JobStatus.DEAD).update(
        status=JobStatus.PENDING,
        max_attempts=F("attempt") + (budget or job.max_attempts),
        next_attempt_at=now,
        finished_at=None,
        worker_id=None,
        lease_expires_at=None,
        updated_at=now,
    )
    if not updated:
        raise Conflict(f"only a dead job can be retried; this one is {job.status}", code="not_dead")
    _record(job, actor, "job.retry", status=JobStatus.PENDING)
    return Job.objects.get(id=job.id)


@transaction.atomic
def job_cancel(*, tenant: Tenant, actor: str, job_id: uuid.UUID) -> Job:
    """pending (or held, waiting, throttled) -> cancelled; a buffered run of the task may go."""
    job = _job_in_queue(tenant, job_id)
    now = timezone.now()
    updated = Job.objects.filter(id=job.id, tenant=tenant, status__in=WAITING).update(
        status=JobStatus.CANCELLED, finished_at=now, updated_at=now, error="cancelled"
    )
    if updated:
        with connection.cursor() as cursor:
            release_jobs(cursor, [job.id])
        _record(job, actor, "job.cancel", status=JobStatus.CANCELLED)
    else:
        raise Conflict(
            f"only a pending job can be cancelled; this one is {job.status}", code="not_pending"
        )
    return Job.objects.get(id=job.id)


@transaction.atomic
def job_discard(*, tenant: Tenant, actor: str, job_id: uuid.UUID) -> Job:
    """dead -> cancelled: out of the dead letter queue for good, its last error kept; it
    reaches the history with the other cancelled jobs."""
    job = _job_in_queue(tenant, job_id)
    now = timezone.now()
    updated = Job.objects.filter(id=job.id, tenant=tenant, status=JobStatus.DEAD).update(
        status=JobStatus.CANCELLED,
        finished_at=now,
        updated_at=now,
        error=f"discarded; last error: {job.error or '-'}"[:ERROR_LENGTH],
    )
    if not updated:
        raise Conflict(
            f"only a dead job can be discarded; this one is {job.status}", code="not_dead"
        )
    _record(job, actor, "job.discard", status=JobStatus.CANCELLED)
    return Job.objects.get(id=job.id)


def _record(job: Job, actor: str, action: str, *, status: str) -> None:
    """The job's entry: its task, and the status it left for the one it has now."""
    changes = {"task_id": str(job.task_id), "status": {"old": str(job.status), "new": status}}
    record(tenant_id=job.tenant_id, actor=actor, action=action, target=job.id, changes=changes)


def _job_in_queue(tenant: Tenant, job_id: uuid.UUID) -> Job:
    """The job as the queue holds it; an archived job is gone from the queue (404)."""
    job = tenant_runs(tenant).filter(id=job_id).first()
    if job is None:
        raise NotFound("job not found (or archived: it can no longer change)")
    return job
