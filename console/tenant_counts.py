"""What each tenant of a page of the tenant list holds: tasks, and jobs pending, running and
dead. Two grouped queries per page, whatever its length: the tasks by tenant, and the jobs
by tenant and status through the wake index (every priority named, so the tenant column is
reached)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from jobs.models import Job, JobStatus
from tasks.models import MAX_PRIORITY, MIN_PRIORITY, Task, TaskStatus, Tenant

COUNTED = (JobStatus.PENDING, JobStatus.RUNNING, JobStatus.DEAD)


@dataclass(frozen=True)
class TenantCounts:
    tasks: int = 0
    pending: int = 0
    running: int = 0
    dead: int = 0


def counts_for(tenants: list[Tenant]) -> dict[object, TenantCounts]:
    ids = [tenant.id for tenant in tenants]
    if not ids:
        return {}
    tasks = dict(
        Task.objects.filter(tenant_id__in=ids)
        .exclude(status=TaskStatus.DELETED)
        .values_list("tenant_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    jobs: dict[object, dict[str, int]] = {}
    rows = (
        Job.objects.filter(
            status__in=COUNTED,
            priority__in=range(MIN_PRIORITY, MAX_PRIORITY + 1),
            tenant_id__in=ids,
        )
        .values_list("tenant_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    )
    for tenant_id, status, count in rows:
        jobs.setdefault(tenant_id, {})[status] = count
    return {i: TenantCounts(tasks.get(i, 0), **jobs.get(i, {})) for i in ids}
