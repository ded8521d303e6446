"""Callback jobs for the tests, put in the queue as a finished run puts them."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from jobs.callbacks.enqueue import NewCallback, enqueue
from jobs.models import Callback, CallbackEvent, Job
from tests.processes import wait_until


def make_callback(origin: Job, url: str, event: str = CallbackEvent.FAILURE, **fields) -> Job:
    """A pending callback job reporting on `origin`; `fields` overwrite its job row."""
    (job_id,) = enqueue(
        [
            NewCallback(
                tenant_id=origin.tenant_id,
                task_id=origin.task_id,
                origin_job_id=origin.id,
                event=event,
                url=url,
                body=json.dumps({"job_id": str(origin.id)}),
                due_at=datetime.now(UTC),
            )
        ]
    )
    if fields:
        Job.objects.filter(id=job_id).update(**fields)
    return Job.objects.get(id=job_id)


def calls_to(endpoint, path: str) -> list:
    return [call for call in endpoint.received if call.path == path]


def wait_for_calls(endpoint, path: str, count: int = 1, timeout: float = 30) -> list:
    """The calls `path` received once there are `count` of them."""
    wait_until(
        lambda: len(calls_to(endpoint, path)) >= count,
        timeout=timeout,
        message=f"{path} was not called {count} time(s)",
    )
    return calls_to(endpoint, path)


def callbacks_of(job: Job) -> list[Callback]:
    return list(Callback.objects.filter(origin_job_id=job.id).order_by("created_at", "job_id"))
