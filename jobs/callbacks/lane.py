"""Which jobs are callbacks: those of the callback lane (CALLBACK_PRIORITY), whose task_id
is their own id and whose target is in `callbacks`."""

from __future__ import annotations

from jobs.models import CALLBACK_PRIORITY, Job


def is_callback(job: Job) -> bool:
    return job.priority == CALLBACK_PRIORITY
