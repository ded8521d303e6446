"""Making the callbacks of jobs that just finished, in the transaction that finished them.

Called by the executor's result batch (for the jobs whose task or tenant has a callback URL,
known at the claim) and by the reconciler (for jobs whose last lease ran out). A callback
job never has callbacks of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from jobs.callbacks import alerts
from jobs.callbacks.enqueue import NewCallback, enqueue
from jobs.callbacks.payload import Finished, body
from jobs.models import CALLBACK_PRIORITY, CallbackEvent, Job, JobStatus
from tasks.models import Task, Tenant

FIELDS = (
    "id", "tenant_id", "task_id", "scheduled_at", "status", "attempt", "http_status", "error",
    "duration_ms", "finished_at", "response_body",
)  # fmt: skip


def make_callbacks(
    finished: Iterable[str],
    responses: dict[str, bytes] | None = None,
    *,
    worker_id: str | None = None,
) -> int:
    """The callbacks of the jobs `finished` (ids) that are succeeded or dead now; `responses`
    holds the start of their last replies as bytes where the executor has them. Given
    `worker_id`, only the jobs that worker finished count: a stale result it sent (fenced
    off) makes none. Returns how many callbacks were made."""
    ids = list(finished)
    if not ids:
        return 0
    rows = Job.objects.filter(id__in=ids, status__in=(JobStatus.SUCCEEDED, JobStatus.DEAD))
    if worker_id is not None:
        rows = rows.filter(worker_id=worker_id)
    jobs = list(rows.exclude(priority=CALLBACK_PRIORITY).values_list(*FIELDS))
    if not jobs:
        return 0
    tasks = {
        row[0]: row[1:]
        for row in Task.objects.filter(id__in={job[2] for job in jobs}).values_list(
            "id", "name", "on_success_url", "on_failure_url"
        )
    }
    tenant_urls = dict(
        Tenant.objects.filter(
            id__in={job[1] for job in jobs}, on_failure_url__isnull=False
        ).values_list("id", "on_failure_url")
    )
    now = datetime.now(UTC)
    made, deaths = [], []
    for job in jobs:
        name, on_success, on_failure = tasks.get(job[2], ("", None, None))
        report = _finished(job, name, (responses or {}).get(str(job[0])))
        if job[4] == JobStatus.SUCCEEDED and on_success:
            made.append(_callback(job, CallbackEvent.SUCCESS, on_success, report, now))
        elif job[4] == JobStatus.DEAD and on_failure:
            made.append(_callback(job, CallbackEvent.FAILURE, on_failure, report, now))
        elif job[4] == JobStatus.DEAD and job[1] in tenant_urls:
            deaths.append(alerts.Death(job[1], job[2], job[0], tenant_urls[job[1]], report))
    made += alerts.alerts_for(deaths, now)
    enqueue(made)
    return len(made)


def _finished(job: tuple, name: str, response: bytes | None) -> Finished:
    return Finished(
        job_id=str(job[0]),
        task_id=str(job[2]),
        task_name=name,
        scheduled_at=job[3],
        status=job[4],
        attempts=job[5],
        http_status=job[6],
        error=job[7],
        duration_ms=job[8],
        finished_at=job[9],
        response=response if response is not None else job[10],
    )


def _callback(job: tuple, event: str, url: str, report: Finished, now: datetime) -> NewCallback:
    return NewCallback(
        tenant_id=job[1],
        task_id=job[2],
        origin_job_id=job[0],
        event=event,
        url=url,
        body=body(event, report),
        due_at=now,
    )
