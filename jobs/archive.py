"""The archive use case: finished jobs move from the jobs table to the history store.

History first, then the delete of exactly what was read: a crash in between leaves a job in
both stores (readers drop the duplicate, the jobs table wins), never in neither.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from history.records import HistoryRecord, HistoryStore
from history.stores import history_store
from jobs.archive_delete import archive_delete
from jobs.attempts import attempts_by_job
from jobs.models import Job, JobStatus


def job_record(job: Job) -> HistoryRecord:
    """The job's own columns as the history keeps them (its attempts are read apart)."""
    return HistoryRecord(**{name: getattr(job, name) for name in HistoryRecord.field_names()})


def archive_delays() -> dict[str, timedelta]:
    return {
        JobStatus.SUCCEEDED: timedelta(seconds=settings.ARCHIVE_SUCCEEDED_AFTER_SECONDS),
        JobStatus.CANCELLED: timedelta(seconds=settings.ARCHIVE_CANCELLED_AFTER_SECONDS),
        JobStatus.DEAD: timedelta(seconds=settings.ARCHIVE_DEAD_AFTER_SECONDS),
    }


def archivable_jobs(*, now: datetime, batch_size: int) -> list[Job]:
    """Finished jobs old enough to leave, oldest first, one index range per status."""
    jobs: list[Job] = []
    for status, delay in archive_delays().items():
        remaining = batch_size - len(jobs)
        if remaining <= 0:
            break
        query = Job.objects.filter(status=status, finished_at__lt=now - delay)
        jobs += list(query.order_by("finished_at")[:remaining])
    return jobs


def archive_batch(
    *,
    now: datetime | None = None,
    batch_size: int = 500,
    store: HistoryStore | None = None,
    between_writes: Callable[[], None] | None = None,
) -> tuple[int, int]:
    """Move one batch; returns (written to history, deleted from the jobs table)."""
    jobs = archivable_jobs(now=now or timezone.now(), batch_size=batch_size)
    if not jobs:
        return 0, 0
    attempts = attempts_by_job(job.id for job in jobs)
    records = [replace(job_record(job), attempts=attempts.get(job.id, ())) for job in jobs]
    (store or history_store()).write(records)
    if between_writes is not None:
        between_writes()
    return len(jobs), archive_delete(jobs)
