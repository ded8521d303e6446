"""The skipped-run ledger in the SQL history store (history.models.SkippedRunHistory)."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DatabaseError, connection
from django.db.models import Q

from history.models import SkippedRunHistory
from history.records import HistoryUnavailable, SkipCursor, SkipRecord

UPDATED = [name for name in SkipRecord.field_names() if name != "id"] + ["archived_at"]


def write_skips(records: list[SkipRecord]) -> None:
    rows = [SkippedRunHistory(**_values(record)) for record in records]
    # MySQL upserts on any unique key; SQLite needs the conflict target named.
    target = {}
    if connection.features.supports_update_conflicts_with_target:
        target = {"unique_fields": ["id"]}
    try:
        SkippedRunHistory.objects.bulk_create(
            rows, update_conflicts=True, update_fields=UPDATED, **target
        )
    except DatabaseError as exc:
        raise HistoryUnavailable(f"history write failed: {exc}") from exc


def task_skips(
    *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int
) -> list[SkipRecord]:
    query = SkippedRunHistory.objects.filter(tenant_id=tenant_id, task_id=task_id)
    if before is not None:
        query = query.filter(
            Q(last_scheduled_at__lt=before.last_scheduled_at)
            | Q(last_scheduled_at=before.last_scheduled_at, id__lt=before.entry_id)
        )
    try:
        rows = list(query.order_by("-last_scheduled_at", "-id")[:limit])
    except DatabaseError as exc:
        raise HistoryUnavailable(f"history read failed: {exc}") from exc
    return [
        SkipRecord(**{name: getattr(row, name) for name in SkipRecord.field_names()})
        for row in rows
    ]


def purge_skips(*, archived_before: datetime, batch_size: int) -> int:
    """Delete entries past the retention, one bounded batch at a time."""
    ids = list(
        SkippedRunHistory.objects.filter(archived_at__lt=archived_before)
        .order_by("archived_at")
        .values_list("id", flat=True)[:batch_size]
    )
    if not ids:
        return 0
    deleted, _ = SkippedRunHistory.objects.filter(id__in=ids).delete()
    return deleted


def _values(record: SkipRecord) -> dict:
    return {name: getattr(record, name) for name in SkipRecord.field_names()}
