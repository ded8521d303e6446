"""The dashboard of one tenant: the service dashboard's figures filtered to its jobs and
flows, each read from the wake index's ranges of that tenant (every status and priority
named, so the tenant column is reached), and its own per-minute counts."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Count, Min
from django.utils import timezone

from console.dashboard import OPEN_CIRCUITS_SHOWN, Dashboard
from console.timeline import timeline_charts
from flows.models import CircuitState, Flow
from jobs.models import CALLBACK_PRIORITY, Job, JobStatus
from tasks.models import MAX_PRIORITY, MIN_PRIORITY, Tenant

PRIORITIES = [*range(MIN_PRIORITY, MAX_PRIORITY + 1), CALLBACK_PRIORITY]


def tenant_jobs(tenant: Tenant, *statuses: str):
    return Job.objects.filter(
        status__in=statuses or JobStatus.values, priority__in=PRIORITIES, tenant_id=tenant.id
    )


def read_tenant_dashboard(tenant: Tenant) -> Dashboard:
    now = timezone.now()
    depth: dict[str, dict[int, int]] = {status: {} for status in JobStatus.values}
    counts = tenant_jobs(tenant).values_list("status", "priority").annotate(n=Count("id"))
    for status, priority, count in counts.order_by():
        depth[status][priority] = count
    due = tenant_jobs(tenant, JobStatus.PENDING).filter(wake_at__lte=now)
    return Dashboard(
        taken_at=now,
        depth=depth,
        due_unclaimed=due.count(),
        dead_last_hour=_dead_since(tenant, now - timedelta(hours=1)),
        dead_last_day=_dead_since(tenant, now - timedelta(days=1)),
        heartbeats=[],
        open_circuits=_open_circuits(tenant),
        oldest_due=_oldest_due(tenant, now),
        charts=timeline_charts(now, tenant.id),
    )


def _dead_since(tenant: Tenant, moment: datetime) -> int:
    return tenant_jobs(tenant, JobStatus.DEAD).filter(wake_at__gte=moment).count()


def _open_circuits(tenant: Tenant) -> list[Flow]:
    flows = Flow.objects.filter(tenant=tenant).exclude(circuit_state=CircuitState.CLOSED)
    return list(flows.select_related("tenant").order_by("opened_at", "id")[:OPEN_CIRCUITS_SHOWN])


def _oldest_due(tenant: Tenant, now: datetime) -> dict[int, float]:
    """As jobs/oldest_due.py, for one tenant: one range per priority of its due rows."""
    due = tenant_jobs(tenant, JobStatus.PENDING).filter(wake_at__lte=now)
    oldest = due.values("priority").annotate(oldest=Min("wake_at")).order_by("priority")
    return {row["priority"]: max(0.0, (now - row["oldest"]).total_seconds()) for row in oldest}
