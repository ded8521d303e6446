"""The skipped-run ledger in the SQL history store (history.models.SkippedRunHistory)."""

from __future__ import annotations

import uuid
from datetime import datetime

from history.models import SkippedRunHistory
from history.records import SkipCursor, SkipRecord
from history.sql_rows import newest_first, purge_batch, upsert

UPDATED = [name for name in SkipRecord.field_names() if name != "id"] + ["archived_at"]


def write_skips(records: list[SkipRecord]) -> None:
    rows = [SkippedRunHistory(**_values(record)) for record in records]
    upsert(SkippedRunHistory, rows, UPDATED)


def task_skips(
    *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int
) -> list[SkipRecord]:
    query = SkippedRunHistory.objects.filter(tenant_id=tenant_id, task_id=task_id)
    cursor = before.key() if before is not None else None
    rows = newest_first(query, "last_scheduled_at", cursor, limit)
    return [
        SkipRecord(**{name: getattr(row, name) for name in SkipRecord.field_names()})
        for row in rows
    ]


def purge_skips(*, archived_before: datetime, batch_size: int) -> int:
    """Delete entries past the retention, one bounded batch at a time."""
    return purge_batch(SkippedRunHistory, archived_before, batch_size)


def _values(record: SkipRecord) -> dict:
    return {name: getattr(record, name) for name in SkipRecord.field_names()}
