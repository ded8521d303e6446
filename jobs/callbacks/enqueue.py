"""Putting callbacks in the queue: a job row in the callback lane and its target."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings

from jobs.models import CALLBACK_PRIORITY, Callback, Job, JobStatus
from scheduler_site.ids import new_id


@dataclass(slots=True)
class NewCallback:
    tenant_id: uuid.UUID
    task_id: uuid.UUID  # of the job reported on
    origin_job_id: uuid.UUID
    event: str
    url: str
    body: str
    due_at: datetime
    # Given by a maker that must know the id before the insert (the alert's pace row).
    job_id: uuid.UUID | None = None


def enqueue(callbacks: list[NewCallback]) -> list[uuid.UUID]:
    """Insert the callbacks' jobs and targets (inside the caller's transaction); their ids.

    The job's id is the callback's `webhook-id` on every try; its task id is its own id, so
    the run key (task, scheduled_at) never meets a run's and no task reader finds it."""
    if not callbacks:
        return []
    ids = [callback.job_id or new_id() for callback in callbacks]
    Job.objects.bulk_create(
        [_job(job_id, callback) for job_id, callback in zip(ids, callbacks, strict=True)]
    )
    Callback.objects.bulk_create(
        [
            Callback(
                job_id=job_id,
                tenant_id=callback.tenant_id,
                task_id=callback.task_id,
                origin_job_id=callback.origin_job_id,
                event=callback.event,
                url=callback.url,
                body=callback.body,
            )
            for job_id, callback in zip(ids, callbacks, strict=True)
        ]
    )
    return ids


def _job(job_id: uuid.UUID, callback: NewCallback) -> Job:
    return Job(
        id=job_id,
        tenant_id=callback.tenant_id,
        task_id=job_id,
        scheduled_at=callback.due_at,
        next_attempt_at=callback.due_at,
        priority=CALLBACK_PRIORITY,
        status=JobStatus.PENDING,
        max_attempts=settings.CALLBACK_MAX_ATTEMPTS,
        timeout_seconds=settings.CALLBACK_TIMEOUT_SECONDS,
        backoff_base_seconds=settings.CALLBACK_BACKOFF_SECONDS,
    )
