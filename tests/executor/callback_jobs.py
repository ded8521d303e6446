"""Callback jobs for the tests, put in the queue as a finished run puts them."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from jobs.callbacks.enqueue import NewCallback, enqueue
from jobs.models import CallbackEvent, Job


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
