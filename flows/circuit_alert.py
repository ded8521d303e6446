"""The tenant's failure alert when a flow's circuit opens from closed: one callback per
opening (a re-open after a failed probe makes none), to the tenant's on_failure_url, made
in the transaction that opened it, so two executors ending calls of one flow at once still
make one. It names the latest failed call of the batch that opened it (its job and task)."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta

from django.conf import settings

from flows.models import Flow
from jobs.callbacks.enqueue import NewCallback
from jobs.models import CallbackEvent, Job
from tasks.models import Tenant

OPENED = "circuit.opened"


def circuit_alerts(opened: list[Flow], ended: list[tuple[str, int, bool | None]], now: datetime):
    """The alerts of the flows `opened` by the calls `ended` ((job id, flow id, failed), in
    the order they ended), for tenants with an on_failure_url."""
    urls = _alert_urls({flow.tenant_id for flow in opened}) if opened else {}
    flows = [flow for flow in opened if flow.tenant_id in urls]
    if not flows:
        return []
    opener = {flow_id: uuid.UUID(job) for job, flow_id, failed in ended if failed}
    jobs = Job.objects.filter(id__in=[opener[flow.id] for flow in flows])
    tasks = dict(jobs.values_list("id", "task_id"))
    due = now + timedelta(seconds=settings.CALLBACK_DELAY_SECONDS)
    return [
        NewCallback(
            tenant_id=flow.tenant_id,
            task_id=tasks[opener[flow.id]],
            origin_job_id=opener[flow.id],
            event=CallbackEvent.ALERT,
            url=urls[flow.tenant_id],
            body=opened_body(flow, opener[flow.id], tasks[opener[flow.id]]),
            due_at=due,
        )
        for flow in flows
    ]


def opened_body(flow: Flow, job_id: uuid.UUID, task_id: uuid.UUID) -> str:
    document = {
        "type": OPENED,
        "event": CallbackEvent.ALERT.value,
        "flow_key": flow.key,
        "failures": flow.failures,
        "breaker_failures": flow.breaker_failures,
        "opened_at": _instant(flow.opened_at),
        "retry_at": _instant(flow.retry_at),
        "job_id": str(job_id),
        "task_id": str(task_id),
    }
    return json.dumps(document, separators=(",", ":"))


def _alert_urls(tenants: set) -> dict:
    rows = Tenant.objects.filter(id__in=tenants).exclude(on_failure_url__isnull=True)
    return {tenant: url for tenant, url in rows.values_list("id", "on_failure_url") if url}


def _instant(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None
