"""Flows for the executor tests: a tenant that uses flows and a flow of its own, set in its
row directly (the flows API is not the executor's)."""

from __future__ import annotations

from datetime import UTC, datetime

from flows.models import Flow
from jobs.models import Job
from tasks.models import Tenant


def flow_of(tenant: Tenant, key: str = "api", **settings) -> Flow:
    Tenant.objects.filter(id=tenant.id).update(uses_flows=True)
    tenant.uses_flows = True
    return Flow.objects.create(tenant=tenant, key=key, **settings)


def pause(flow: Flow) -> None:
    Flow.objects.filter(id=flow.id).update(paused=True, stopped_at=datetime.now(UTC))


def charged_attempts(job: Job) -> int:
    """Attempts the job has used of its allowance: a hand-back raises both counts by one."""
    row = Job.objects.get(id=job.id)
    return row.attempt - (row.max_attempts - job.max_attempts)
