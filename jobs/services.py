"""Job use cases that change a job's state (each one a guarded UPDATE)."""

import uuid

from django.utils import timezone

from jobs.models import Job, JobStatus


def jobs_cancel_pending_for_task(*, task_id: uuid.UUID) -> int:
    """Cancel every job of a task that has not been claimed yet; returns how many."""
    now = timezone.now()
    return Job.objects.filter(task_id=task_id, status=JobStatus.PENDING).update(
        status=JobStatus.CANCELLED, finished_at=now, updated_at=now, error="task deleted"
    )
