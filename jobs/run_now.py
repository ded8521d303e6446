"""Run a task once now, outside its schedule.

A stand-in with the name and signature of the use case behind `POST /v1/tasks/{id}/run`
on the `api` branch: when that branch is merged, its version of this file replaces this one
whole (the admin's "Run now" calls only `task_run_now`).
"""

from __future__ import annotations

import uuid

from django.utils import timezone

from jobs.models import Job
from scheduler_site.errors import Conflict, NotFound
from tasks.models import Task, TaskStatus, Tenant


def task_run_now(
    *, tenant: Tenant, task_id: uuid.UUID, idempotency_key: str | None = None
) -> tuple[Job, bool]:
    """One job of the task due at once, as a scheduled run would be; and that it was made
    by this call (the api branch's version replays a repeated idempotency key)."""
    task = Task.objects.filter(tenant=tenant, id=task_id).first()
    if task is None:
        raise NotFound("task not found")
    if task.status == TaskStatus.DELETED:
        raise Conflict("the task was deleted; it cannot run", code="task_deleted")
    now = timezone.now()
    job = Job.objects.create(
        tenant=tenant,
        task=task,
        scheduled_at=now,
        next_attempt_at=now,
        priority=task.priority,
        max_attempts=task.max_attempts,
        timeout_seconds=task.timeout_seconds,
        backoff_base_seconds=task.backoff_base_seconds,
    )
    return job, True
