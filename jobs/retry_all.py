""" "Retry all matching" as a background operation: the request records the operation and
the ids it matched (one INSERT ... SELECT), the reconciler retries them in batches.

One runs at a time: the operation's running slot is a unique key, so a second request is
refused by the database whichever worker it reaches. Everything lives in the database, so
an API worker's restart loses nothing, and a reconciler stopped mid-batch rolls that batch
back and its next turn (or another reconciler) goes on from there.
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from audit.record import operator, record
from jobs.bulk_retry import jobs_retry_dead
from jobs.models import Job, RetryAllItem, RetryAllOperation
from scheduler_site.errors import Conflict

BATCH_SIZE = 500


def retry_all_start(*, dead_jobs: QuerySet, requested_by: str, filters: str) -> RetryAllOperation:
    """Record the operation; refused (409) while another one runs."""
    try:
        with transaction.atomic():
            operation = RetryAllOperation.objects.create(requested_by=requested_by, filters=filters)
            operation.total = _snapshot(operation, dead_jobs)
            if not operation.total:  # nothing for the reconciler: the slot is free at once
                operation.running_slot, operation.finished_at = None, timezone.now()
            operation.save()
            _record_per_tenant(operation)
    except IntegrityError:
        raise Conflict(_already_running(), code="retry_all_running") from None
    return operation


def _snapshot(operation: RetryAllOperation, dead_jobs: QuerySet) -> int:
    """The matching ids copied inside the database: the request never reads them."""
    sql, params = dead_jobs.order_by().values("id").query.sql_with_params()
    table = RetryAllItem._meta.db_table
    insert = f"INSERT INTO {table} (operation_id, job_id) SELECT %s, m.id FROM ({sql}) m"
    with connection.cursor() as cursor:
        cursor.execute(insert, [operation.id, *params])
        return cursor.rowcount


def _record_per_tenant(operation: RetryAllOperation) -> None:
    """One entry per tenant whose dead jobs the operation matched, with their count (each
    tenant sees its own in GET /v1/audit); counted inside the database, as the snapshot is."""
    matched = RetryAllItem.objects.filter(operation_id=operation.id).values("job_id")
    per_tenant = Job.objects.filter(id__in=matched).values("tenant_id").annotate(count=Count("id"))
    for row in per_tenant.order_by("tenant_id"):
        record(
            tenant_id=row["tenant_id"],
            actor=operator(operation.requested_by),
            action="dlq.retry_all",
            target=operation.id,
            changes={"count": row["count"], "filters": operation.filters},
        )


def _already_running() -> str:
    running = RetryAllOperation.objects.filter(running_slot=RetryAllOperation.RUNNING).first()
    progress = f" ({running.done:,} of {running.total:,} done)" if running else ""
    return (
        f"A retry of all matching dead jobs is already running{progress}; "
        "wait for it to finish before starting another."
    )


def retry_all_step(*, batch_size: int = BATCH_SIZE) -> bool:
    """One batch of the running operation (if any); True while more batches remain."""
    with transaction.atomic():
        # The row lock makes concurrent reconcilers take batches in turn.
        operation = (
            RetryAllOperation.objects.select_for_update()
            .filter(running_slot=RetryAllOperation.RUNNING)
            .first()
        )
        if operation is None:
            return False
        items = RetryAllItem.objects.filter(operation_id=operation.id)
        job_ids = list(items.order_by("job_id").values_list("job_id", flat=True)[:batch_size])
        if job_ids:
            _retry_batch(operation, job_ids)
            items.filter(job_id__in=job_ids).delete()
        more = len(job_ids) == batch_size
        if not more:
            operation.running_slot, operation.finished_at = None, timezone.now()
        operation.save()
        return more


def _retry_batch(operation: RetryAllOperation, job_ids: list) -> None:
    outcome = jobs_retry_dead(job_ids=job_ids)
    operation.retried += outcome.retried
    for reason, count in outcome.refused.items():
        operation.refused[reason] = operation.refused.get(reason, 0) + count


def retry_all_latest() -> RetryAllOperation | None:
    """The operation running, or else the last one to finish: what the page shows."""
    return RetryAllOperation.objects.order_by("-id").first()
