"""The dead letter queue filtered by labels or by task: the tenant's dead rows (their ranges
of the wake index, priorities 0-9, which leaves callbacks out), each one checked."""

from __future__ import annotations

import uuid

from jobs.models import Job, JobStatus
from tasks.label_filters import with_labels
from tasks.models import MAX_PRIORITY, MIN_PRIORITY, Tenant

TENANT_PRIORITIES = range(MIN_PRIORITY, MAX_PRIORITY + 1)


def labelled_dead_jobs(
    *,
    tenant: Tenant,
    before_id: uuid.UUID | None,
    limit: int,
    labels: dict[str, str],
    task_id: uuid.UUID | None = None,
) -> list[Job]:
    """Newest first, strictly before `before_id` when given, of one task when given."""
    query = Job.objects.filter(
        status=JobStatus.DEAD, priority__in=TENANT_PRIORITIES, tenant_id=tenant.id
    )
    if task_id is not None:
        query = query.filter(task_id=task_id)
    if before_id is not None:
        query = query.filter(id__lt=before_id)
    return list(with_labels(query, labels).order_by("-id")[:limit])
