"""The dead letter queue: a tenant's dead runs (not its dead callbacks, priority 10) are the
entries of jobs_dead_letters_idx under its id, in id order, so every reader of them (the
page, its filters, the bulk retry's batches) is one range that stops where its LIMIT does."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from jobs.models import Job
from tasks.label_filters import with_labels
from tasks.models import MAX_PRIORITY, MIN_PRIORITY, Tenant

TENANT_PRIORITIES = range(MIN_PRIORITY, MAX_PRIORITY + 1)


def tenant_dead_runs(tenant_id: uuid.UUID) -> QuerySet:
    """Same rows as status dead, priority 0-9 and the tenant, read from the DLQ's index."""
    return Job.objects.filter(dead_tenant=tenant_id)


def labelled_dead_jobs(
    *,
    tenant: Tenant,
    before_id: uuid.UUID | None,
    limit: int,
    labels: dict[str, str],
    task_id: uuid.UUID | None = None,
) -> list[Job]:
    """Newest first, strictly before `before_id` when given, of one task when given."""
    query = tenant_dead_runs(tenant.id)
    if task_id is not None:
        query = query.filter(task_id=task_id)
    if before_id is not None:
        query = query.filter(id__lt=before_id)
    return list(with_labels(query, labels).order_by("-id")[:limit])
