"""The tenant-wide failure alert: the tenant's on_failure_url, for a dead job of a task
without an on_failure_url of its own.

FOUNDATION: every death alerts at once. The pacing (at most one alert per task per
ALERT_WINDOW_SECONDS, the deaths in between counted into the next alert, FailureAlert rows)
is built on top of this interface.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from jobs.callbacks.enqueue import NewCallback
from jobs.callbacks.payload import Finished, body
from jobs.models import CallbackEvent


@dataclass(slots=True)
class Death:
    tenant_id: uuid.UUID
    task_id: uuid.UUID
    job_id: uuid.UUID
    url: str  # the tenant's on_failure_url
    report: Finished


def alerts_for(deaths: list[Death], now: datetime) -> list[NewCallback]:
    """The alert callbacks to make for these deaths (inside the caller's transaction)."""
    return [
        NewCallback(
            tenant_id=death.tenant_id,
            task_id=death.task_id,
            origin_job_id=death.job_id,
            event=CallbackEvent.ALERT,
            url=death.url,
            body=body(CallbackEvent.ALERT, death.report, {"deaths": 1}),
            due_at=now,
        )
        for death in deaths
    ]
