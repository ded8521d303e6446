"""Reads of jobs for the tenant API: from the jobs table, the history store, or both."""

from __future__ import annotations

import uuid

from django.db import connection
from django.db.models import Q

from history.records import AttemptRecord, HistoryRecord, HistoryUnavailable, RunCursor
from history.stores import history_reader
from jobs.archive import job_record
from jobs.attempts import attempts_for
from jobs.dead_letters import labelled_dead_jobs
from jobs.models import Job
from jobs.queue.engine import queue_engine
from jobs.tenant_jobs import tenant_runs
from scheduler_site.errors import NotFound, ServiceUnavailable
from scheduler_site.sqltools import uuid_param, uuid_text
from tasks.label_filters import with_labels
from tasks.models import Tenant
from tasks.services import task_get

MAX_ID = uuid.UUID(int=(1 << 128) - 1)  # above every id: the first page's bound


def job_get(*, tenant: Tenant, job_id: uuid.UUID) -> HistoryRecord:
    """One job: the jobs table first (it wins), else the history."""
    job = tenant_runs(tenant).filter(id=job_id).first()
    if job is not None:
        return job_record(job)
    record = archived_job(tenant, job_id)
    if record is None:
        raise NotFound("job not found")
    return record


def job_attempts(*, tenant: Tenant, job_id: uuid.UUID) -> list[AttemptRecord]:
    """Every call of one job, first first: from the queue's log, or kept in its history."""
    if tenant_runs(tenant).filter(id=job_id).exists():
        return attempts_for(job_id=job_id)
    record = archived_job(tenant, job_id)
    if record is None:
        raise NotFound("job not found")
    return list(record.attempts)


def archived_job(tenant: Tenant, job_id: uuid.UUID) -> HistoryRecord | None:
    try:
        return history_reader().get(tenant_id=tenant.id, job_id=job_id)
    except HistoryUnavailable as exc:
        raise _unavailable(exc) from exc


def _unavailable(exc: HistoryUnavailable) -> ServiceUnavailable:
    return ServiceUnavailable(
        "the job history is unavailable; try again", retry_after=exc.retry_after
    )


def task_runs(
    *,
    tenant: Tenant,
    task_id: uuid.UUID,
    before: RunCursor | None,
    limit: int,
    labels: dict[str, str] | None = None,
) -> tuple[list[HistoryRecord], RunCursor | None]:
    """A task's runs newest first, both stores merged; a failing store fails the read (a
    partial history would look complete). Filtered by labels, the runs are the queue's
    only: the history keeps no labels, so no archived run can match."""
    task_get(tenant=tenant, task_id=task_id)
    live_jobs = _live_runs(tenant, task_id, before, limit + 1, labels or {})
    live = [job_record(job) for job in live_jobs]
    archived = [] if labels else _archived_runs(tenant, task_id, before, limit + 1)
    merged = merge_newest_first(live, archived)
    if len(merged) > limit:
        last = merged[limit - 1]
        return merged[:limit], RunCursor(last.scheduled_at, last.id)
    return merged, None


def _archived_runs(tenant, task_id, before: RunCursor | None, limit: int) -> list:
    try:
        return history_reader().task_runs(
            tenant_id=tenant.id, task_id=task_id, before=before, limit=limit
        )
    except HistoryUnavailable as exc:
        raise _unavailable(exc) from exc


def _live_runs(tenant, task_id, before: RunCursor | None, limit: int, labels: dict) -> list[Job]:
    query = with_labels(Job.objects.filter(tenant=tenant, task_id=task_id), labels)
    if before is not None:
        query = query.filter(
            Q(scheduled_at__lt=before.scheduled_at)
            | Q(scheduled_at=before.scheduled_at, id__lt=before.job_id)
        )
    return list(query.order_by("-scheduled_at", "-id")[:limit])


def _key(record: HistoryRecord) -> tuple:
    return (record.scheduled_at, record.id)


def merge_newest_first(live: list[HistoryRecord], archived: list[HistoryRecord]) -> list:
    """Two pointers over two lists sorted newest first; a job in both appears once, as the
    jobs table has it."""
    merged, seen = [], set()
    i = j = 0
    while i < len(live) or j < len(archived):
        take_live = j >= len(archived) or (i < len(live) and _key(live[i]) >= _key(archived[j]))
        record = live[i] if take_live else archived[j]
        if take_live:
            i += 1
        else:
            j += 1
        if record.id not in seen:
            seen.add(record.id)
            merged.append(record)
    return merged


def dead_jobs(
    *,
    tenant: Tenant,
    before_id: uuid.UUID | None,
    limit: int,
    labels: dict[str, str] | None = None,
    task_id: uuid.UUID | None = None,
) -> list[Job]:
    """The tenant's dead letter queue, newest first: one range of the DLQ's index, read
    backwards from the cursor for one page; filtered, the same range with each row checked."""
    if labels or task_id is not None:
        return labelled_dead_jobs(
            tenant=tenant, before_id=before_id, limit=limit, labels=labels or {}, task_id=task_id
        )
    before = uuid_param(before_id or MAX_ID)
    with connection.cursor() as cursor:
        rows = queue_engine().dead_letter_ids(cursor, uuid_param(tenant.id), before, limit)
    ids = [uuid_text(row[0]) for row in rows]
    return list(Job.objects.filter(id__in=ids).order_by("-id"))
