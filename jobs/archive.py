"""The archive use case: finished jobs move from the jobs table to the history store.

History first, then the delete of exactly what was read: a crash in between leaves a job in
both stores (readers drop the duplicate, the jobs table wins), never in neither. Finished
callback jobs are dropped, not moved (jobs/callbacks/archive.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from history.records import HistoryRecord, HistoryStore
from history.stores import history_store
from jobs.archive_delete import archive_delete
from jobs.attempts import attempts_by_job
from jobs.callbacks.lane import is_callback
from jobs.models import Job, JobStatus
from jobs.wake_index import oldest_rows
from scheduler_site.sqltools import datetime_param, uuid_text


def job_record(job: Job) -> HistoryRecord:
    """The job's own columns as the history keeps them (its attempts are read apart), and
    its labels for the API's answer (the history does not keep them)."""
    values = {name: getattr(job, name) for name in HistoryRecord.field_names()}
    return HistoryRecord(**values, labels=job.labels)


def archive_delays() -> dict[str, timedelta]:
    return {
        JobStatus.SUCCEEDED: timedelta(seconds=settings.ARCHIVE_SUCCEEDED_AFTER_SECONDS),
        JobStatus.CANCELLED: timedelta(seconds=settings.ARCHIVE_CANCELLED_AFTER_SECONDS),
        JobStatus.DEAD: timedelta(seconds=settings.ARCHIVE_DEAD_AFTER_SECONDS),
    }


def archivable_jobs(*, now: datetime, batch_size: int) -> list[Job]:
    """Finished jobs old enough to leave (a finished row's wake_at is its end), found group
    by group through the wake index, then read whole with their status and age checked
    again: a dead job retried (or discarded) between the two reads is not taken."""
    still_as_found, found = Q(pk__in=[]), 0
    with connection.cursor() as cursor:
        for status, delay in archive_delays().items():
            if found >= batch_size:
                break
            cutoff = now - delay
            rows = oldest_rows(cursor, status, ("%s", [datetime_param(cutoff)]), batch_size - found)
            found += len(rows)
            ids = [uuid_text(row[0]) for row in rows]
            still_as_found |= Q(id__in=ids, status=status, wake_at__lte=cutoff)
    if not found:
        return []
    return list(Job.objects.filter(still_as_found).order_by("wake_at"))


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
    runs = [job for job in jobs if not is_callback(job)]
    if runs:
        attempts = attempts_by_job(job.id for job in runs)
        records = [replace(job_record(job), attempts=attempts.get(job.id, ())) for job in runs]
        (store or history_store()).write(records)
    if between_writes is not None:
        between_writes()
    return len(runs), archive_delete(jobs)
