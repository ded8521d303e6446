"""Making the callbacks of jobs that just finished, in the transaction that finished them.

Called by the executor's result batch (for the jobs whose task or tenant has a callback URL,
known at the claim) and by the reconciler (for jobs whose last lease ran out). A callback
job never has callbacks of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from django.conf import settings

from jobs.callbacks import alerts
from jobs.callbacks.enqueue import NewCallback, enqueue
from jobs.callbacks.finished import finished_jobs
from jobs.callbacks.payload import Finished, body
from jobs.models import CallbackEvent, JobStatus


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
    jobs = finished_jobs(ids, worker_id)
    if not jobs:
        return 0
    # A short wait behind the job's end: the callbacks of a burst follow its runs instead of
    # taking the executors' time from runs still due (priority alone orders one executor).
    now = datetime.now(UTC) + timedelta(seconds=settings.CALLBACK_DELAY_SECONDS)
    made, deaths = [], []
    for job in jobs:
        name, on_success, on_failure, tenant_url = job[11:]
        report = _finished(job, name, (responses or {}).get(str(job[0])))
        if job[4] == JobStatus.SUCCEEDED and on_success:
            made.append(_callback(job, CallbackEvent.SUCCESS, on_success, report, now))
        elif job[4] == JobStatus.DEAD and on_failure:
            made.append(_callback(job, CallbackEvent.FAILURE, on_failure, report, now))
        elif job[4] == JobStatus.DEAD and tenant_url:
            deaths.append(alerts.Death(job[1], job[2], job[0], tenant_url, report))
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
