"""Cancelling many waiting jobs at once: the rule of job_cancel (jobs/services.py) applied to
a batch of ids in one UPDATE, and the buffered runs of their tasks released as one cancel
releases them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.db import connection, transaction
from django.utils import timezone

from jobs.models import Job, JobStatus
from jobs.services import WAITING
from jobs.waiting import release_jobs


def jobs_cancel_waiting(*, tenant_id: uuid.UUID, job_ids: Sequence[uuid.UUID]) -> int:
    """pending, held, waiting or throttled -> cancelled for every job of the batch still so (the
    others were claimed or finished meanwhile); returns how many were cancelled."""
    if not job_ids:
        return 0
    now = timezone.now()
    with transaction.atomic():
        cancelled = Job.objects.filter(
            id__in=job_ids, tenant_id=tenant_id, status__in=WAITING
        ).update(status=JobStatus.CANCELLED, finished_at=now, updated_at=now, error="cancelled")
        with connection.cursor() as cursor:
            # A job of the batch that was not cancelled here releases nothing it should not:
            # the release checks each task for unfinished runs itself.
            release_jobs(cursor, list(job_ids))
    return cancelled
