"""The tenant-wide failure alert: the tenant's on_failure_url, for a dead job of a task
without an on_failure_url of its own, paced so that a storm of deaths is not a storm of alerts.

The rule, per task: at most one alert per ALERT_WINDOW_SECONDS. A death when the task is
quiet alerts at once. Deaths while an alert of the task still waits unclaimed are counted
into it (its body is rewritten: `deaths`, and the latest death's job fields). Any other
death makes the next alert, due when the window of the last one ends, so counted deaths
go out then even if no death follows. An alert an executor has claimed (up to a lookahead
early) or tried once is never rewritten: deaths after that make the next one.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from jobs.callbacks.alert_pace import lock_paces, save_paces, untried_alerts
from jobs.callbacks.enqueue import NewCallback
from jobs.callbacks.payload import Finished, body
from jobs.models import Callback, CallbackEvent, FailureAlert
from scheduler_site.ids import new_id


@dataclass(slots=True)
class Death:
    tenant_id: uuid.UUID
    task_id: uuid.UUID
    job_id: uuid.UUID
    url: str  # the tenant's on_failure_url
    report: Finished


def alerts_for(deaths: list[Death], now: datetime) -> list[NewCallback]:
    """The alert callbacks to make for these deaths (inside the caller's transaction); the
    waiting alerts that count them instead are rewritten here."""
    if not deaths:
        return []
    latest, counts = _by_task(deaths, now)
    paces = lock_paces({task: death.tenant_id for task, death in latest.items()}, now)
    waiting = untried_alerts(pace.next_job_id for pace in paces.values() if pace.next_job_id)
    made, rewritten = [], []
    for task, death in latest.items():
        pace = paces[task]
        if pace.next_job_id in waiting:
            pace.deaths += counts[task]
            rewritten.append(
                Callback(job_id=pace.next_job_id, url=death.url, body=_body(death, pace.deaths))
            )
        else:
            made.append(_next_alert(pace, death, counts[task], now))
    if rewritten:
        Callback.objects.bulk_update(rewritten, ["url", "body"])
    save_paces(paces.values())
    return made


def _by_task(deaths: list[Death], now: datetime) -> tuple[dict, dict]:
    """Each task's latest death, and how many of its deaths there are."""
    latest: dict[uuid.UUID, Death] = {}
    counts: dict[uuid.UUID, int] = {}
    for death in deaths:
        counts[death.task_id] = counts.get(death.task_id, 0) + 1
        known = latest.get(death.task_id)
        if known is None or (death.report.finished_at or now) >= (known.report.finished_at or now):
            latest[death.task_id] = death
    return latest, counts


def _next_alert(pace: FailureAlert, death: Death, deaths: int, now: datetime) -> NewCallback:
    due = max(now, pace.quiet_until)
    pace.next_job_id, pace.deaths = new_id(), deaths
    pace.quiet_until = due + timedelta(seconds=settings.ALERT_WINDOW_SECONDS)
    return NewCallback(
        tenant_id=death.tenant_id,
        task_id=death.task_id,
        origin_job_id=death.job_id,
        event=CallbackEvent.ALERT,
        url=death.url,
        body=_body(death, deaths),
        due_at=due,
        job_id=pace.next_job_id,
    )


def _body(death: Death, deaths: int) -> str:
    window = settings.ALERT_WINDOW_SECONDS
    return body(CallbackEvent.ALERT, death.report, {"deaths": deaths, "window_seconds": window})
