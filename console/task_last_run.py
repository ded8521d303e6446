"""A task's last run and its result: the newest run that started, from the queue (one
subquery per column for a whole list page, on the (task, scheduled_at) unique index) and,
on the task's own page, from the history store too."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import OuterRef, QuerySet, Subquery

from history.records import HistoryUnavailable
from history.stores import history_reader
from jobs.models import Job, JobStatus
from tasks.models import Task

COLUMNS = {
    "last_run_at": "started_at",
    "last_status": "status",
    "last_http": "http_status",
    "last_job_id": "id",
    "last_scheduled_at": "scheduled_at",
}


@dataclass(frozen=True)
class LastRun:
    job_id: object
    started_at: datetime | None
    status: str
    http_status: int | None
    archived: bool = False


def with_last_runs(queryset: QuerySet) -> QuerySet:
    started = Job.objects.filter(task=OuterRef("pk"), started_at__isnull=False)
    newest = started.order_by("-scheduled_at")
    return queryset.annotate(
        **{name: Subquery(newest.values(column)[:1]) for name, column in COLUMNS.items()}
    )


def with_archived_last_runs(tasks: list[Task]) -> None:
    """Each task of a list page gets `archived_last`, its newest archived run, from one
    batch read of the history store (none when the store does not answer: the queue's
    runs are still shown)."""
    try:
        newest = history_reader().newest_runs(tasks=[(t.tenant_id, t.id) for t in tasks])
    except HistoryUnavailable:
        newest = {}
    for task in tasks:
        task.archived_last = newest.get(task.id)


def listed_last_run(task: Task) -> LastRun | None:
    """The newer of the list's two reads: the queue's (with_last_runs) and the history's
    (with_archived_last_runs)."""
    queued = None
    if getattr(task, "last_job_id", None) is not None:
        queued = LastRun(task.last_job_id, task.last_run_at, task.last_status, task.last_http)
    record = getattr(task, "archived_last", None)
    if record is None or (queued is not None and task.last_scheduled_at >= record.scheduled_at):
        return queued
    return LastRun(record.id, record.started_at, record.status, record.http_status, True)


def newest_run(task: Task) -> tuple[LastRun | None, bool]:
    """The newest started run in either store, and whether the history could be read (a
    succeeded run leaves the queue an hour after it ends, a dead one only after days)."""
    job = Job.objects.filter(task=task, started_at__isnull=False).order_by("-scheduled_at").first()
    queued = None if job is None else LastRun(job.id, job.started_at, job.status, job.http_status)
    try:
        archived = history_reader().task_runs(
            tenant_id=task.tenant_id, task_id=task.id, before=None, limit=1
        )
    except HistoryUnavailable:
        return queued, False
    record = archived[0] if archived else None
    if record is None or (job is not None and job.scheduled_at >= record.scheduled_at):
        return queued, True
    run = LastRun(record.id, record.started_at, record.status, record.http_status, True)
    return run, True


def result_text(run: LastRun | None) -> str:
    """`succeeded (200)`, `failed, retrying (503)`, `dead`..., or `-` before any run."""
    if run is None:
        return "-"
    status = run.status
    if status in (JobStatus.PENDING, JobStatus.HELD, JobStatus.THROTTLED):
        status = "failed, retrying"
    return f"{status} ({run.http_status})" if run.http_status else status
