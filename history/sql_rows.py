"""What the SQL history's tables share: the idempotent upsert by id, the newest-first page
behind a cursor, and the purge past the retention in bounded batches."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DatabaseError, connection, models
from django.db.models import Q

from history.records import HistoryUnavailable


def upsert(model: type[models.Model], rows: list[models.Model], fields: list[str]) -> None:
    # MySQL upserts on any unique key; SQLite needs the conflict target named.
    target = {}
    if connection.features.supports_update_conflicts_with_target:
        target = {"unique_fields": ["id"]}
    try:
        model.objects.bulk_create(rows, update_conflicts=True, update_fields=fields, **target)
    except DatabaseError as exc:
        raise HistoryUnavailable(f"history write failed: {exc}") from exc


def newest_first(
    query: models.QuerySet,
    time_field: str,
    before: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> list[models.Model]:
    """Rows by (time_field, id) descending, strictly older than `before` when given."""
    if before is not None:
        at, row_id = before
        query = query.filter(
            Q(**{f"{time_field}__lt": at}) | Q(**{time_field: at, "id__lt": row_id})
        )
    try:
        return list(query.order_by(f"-{time_field}", "-id")[:limit])
    except DatabaseError as exc:
        raise HistoryUnavailable(f"history read failed: {exc}") from exc


def purge_batch(model: type[models.Model], archived_before: datetime, batch_size: int) -> int:
    """Delete one bounded batch of rows archived before the retention's start."""
    ids = list(
        model.objects.filter(archived_at__lt=archived_before)
        .order_by("archived_at")
        .values_list("id", flat=True)[:batch_size]
    )
    if not ids:
        return 0
    deleted, _ = model.objects.filter(id__in=ids).delete()
    return deleted
