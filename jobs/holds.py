"""A paused task makes no calls: its waiting jobs are held until it resumes.

Holding moves a task's pending jobs to `held`, outside the claim's index range, so the
claim never walks them; releasing puts them back as they were (a retry due meanwhile goes
at once, a later one at its own time). A job claimed just before the pause is held by the
executor when it sees the task paused (see the hand-back).
"""

from __future__ import annotations

import uuid

from django.utils import timezone

from jobs.models import Job, JobStatus

# A job its flow holds back (throttled) is held too: a pause outlasts the flow's limits, and
# its flow_waits row, left behind, is dropped when the flow next lets jobs go.
HOLDABLE = (JobStatus.PENDING, JobStatus.THROTTLED)


def jobs_hold_for_task(*, task_id: uuid.UUID) -> int:
    """A run asked for by hand (run now) is not held: the tenant asked for that call."""
    return Job.objects.filter(task_id=task_id, status__in=HOLDABLE, run_now=False).update(
        status=JobStatus.HELD, updated_at=timezone.now()
    )


def jobs_release_for_task(*, task_id: uuid.UUID) -> int:
    return Job.objects.filter(task_id=task_id, status=JobStatus.HELD).update(
        status=JobStatus.PENDING, updated_at=timezone.now()
    )


def jobs_waiting_for_task(*, task_id: uuid.UUID) -> bool:
    """A job a pause would hold: waiting, or claimed and not yet resolved (the executor
    hands it back held when it reads the pause)."""
    waiting = (*HOLDABLE, JobStatus.HELD, JobStatus.RUNNING)
    return Job.objects.filter(task_id=task_id, status__in=waiting, run_now=False).exists()
