"""Retrying many dead jobs at once: the rules of job_retry (jobs/services.py) applied to a
batch of ids, with one UPDATE for the whole batch instead of one per job."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce, NullIf
from django.utils import timezone

from jobs.models import Job, JobStatus
from tasks.models import Task, TaskStatus, Tenant
from tasks.overlap_job import forget_overlap_job

# Why a job was left dead, as the summary names it.
REFUSALS = {
    "tenant_stopped": "its tenant is stopped",
    "task_deleted": "its task was deleted",
    "not_dead": "no longer dead (retried, discarded or archived since)",
}


@dataclass
class BatchOutcome:
    retried: int = 0
    refused: Counter = field(default_factory=Counter)  # a REFUSALS key -> how many


def jobs_retry_dead(*, job_ids: Sequence[uuid.UUID]) -> BatchOutcome:
    """dead -> pending for every job of the batch that a single retry would accept."""
    outcome = BatchOutcome()
    rows = list(
        Job.objects.filter(id__in=job_ids).values_list("id", "status", "task_id", "tenant_id")
    )
    outcome.refused["not_dead"] += len(job_ids) - len(rows)  # archived: gone from the queue
    deleted, stopped = _refusing_tasks_and_tenants(rows)
    accepted = []
    for job_id, status, task_id, tenant_id in rows:
        reason = _refusal(status, task_id in deleted, tenant_id in stopped)
        if reason:
            outcome.refused[reason] += 1
        else:
            accepted.append(job_id)
    outcome.retried = _put_back(accepted)
    outcome.refused["not_dead"] += len(accepted) - outcome.retried  # changed meanwhile
    outcome.refused = +outcome.refused  # only the reasons that happened
    return outcome


def _refusing_tasks_and_tenants(rows: list[tuple]) -> tuple[set, set]:
    task_ids = {row[2] for row in rows}
    tenant_ids = {row[3] for row in rows}
    alive = Task.objects.filter(id__in=task_ids).exclude(status=TaskStatus.DELETED)
    deleted = task_ids - set(alive.values_list("id", flat=True))
    stopped = Tenant.objects.filter(id__in=tenant_ids, is_active=False)
    return deleted, set(stopped.values_list("id", flat=True))


def _refusal(status: str, task_deleted: bool, tenant_stopped: bool) -> str | None:
    if status != JobStatus.DEAD:
        return "not_dead"
    if task_deleted:
        return "task_deleted"
    if tenant_stopped:
        return "tenant_stopped"
    return None


def _put_back(job_ids: list[uuid.UUID]) -> int:
    """The one UPDATE: each job's fresh budget is its task's max_attempts (its own when the
    task has none), added to the attempt number, which never goes down (the fencing token)."""
    if not job_ids:
        return 0
    budget = Task.objects.filter(id=OuterRef("task_id")).values("max_attempts")[:1]
    now = timezone.now()
    with transaction.atomic():
        tasks = Job.objects.filter(id__in=job_ids).values_list("task_id", flat=True).distinct()
        forget_overlap_job(tasks)  # unfinished again beside the run the tick remembers
        return _revive(job_ids, budget, now)


def _revive(job_ids: list[uuid.UUID], budget, now) -> int:
    return Job.objects.filter(id__in=job_ids, status=JobStatus.DEAD).update(
        status=JobStatus.PENDING,
        max_attempts=F("attempt") + Coalesce(NullIf(Subquery(budget), 0), F("max_attempts")),
        next_attempt_at=now,
        finished_at=None,
        worker_id=None,
        lease_expires_at=None,
        updated_at=now,
    )
