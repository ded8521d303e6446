"""The alert pace rows (failure_alerts) of the tasks whose jobs just died, taken under lock.

Two executors recording deaths of one task at once must not both alert: each first upserts
the task's row (an insert, or an update of nothing, either of which holds the row's lock
until commit on MariaDB; SQLite has one writer at a time), then reads it. The rows are
upserted in task order so two batches of the same tasks lock them in the same order.
Every step is one statement for the whole batch, however many tasks died.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime

from django.db import connection

from jobs.models import FailureAlert, Job, JobStatus


def _upsert(rows: list[FailureAlert], fields: list[str]) -> None:
    # MariaDB's ON DUPLICATE KEY names no target; SQLite's ON CONFLICT must.
    target = ["task_id"] if connection.features.supports_update_conflicts_with_target else None
    FailureAlert.objects.bulk_create(
        sorted(rows, key=lambda row: row.task_id),
        update_conflicts=True,
        update_fields=fields,
        unique_fields=target,
    )


def lock_paces(tenants: dict[uuid.UUID, uuid.UUID], now: datetime) -> dict[uuid.UUID, FailureAlert]:
    """The pace rows of these tasks (task id to tenant id), made quiet where new, locked."""
    _upsert(
        [
            FailureAlert(task_id=task, tenant_id=tenant, quiet_until=now)
            for task, tenant in tenants.items()
        ],
        ["tenant_id"],
    )
    rows = (
        FailureAlert.objects.select_for_update()
        .filter(task_id__in=list(tenants))
        .order_by("task_id")
    )
    return {row.task_id: row for row in rows}


def untried_alerts(job_ids: Iterable[uuid.UUID]) -> set[uuid.UUID]:
    """Of these waiting alerts, the ones no executor has claimed yet, locked: their bodies may
    still change. One being claimed right now is locked by that claim and passed by (it is
    going out as it is); so is one claimed already (running) or tried once (pending again)."""
    ids = list(job_ids)
    if not ids:
        return set()
    rows = (
        Job.objects.select_for_update(skip_locked=True)
        .filter(id__in=ids)
        .values_list("id", "status", "attempt")
    )
    return {
        job_id for job_id, status, attempt in rows if status == JobStatus.PENDING and not attempt
    }


def save_paces(rows: Iterable[FailureAlert]) -> None:
    """Write the rows' new state back (they are locked: an upsert that only updates)."""
    _upsert(list(rows), ["quiet_until", "next_job_id", "deaths"])
