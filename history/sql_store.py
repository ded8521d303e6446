"""The SQL history store: the embedded default, also fine for small MySQL installs."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DatabaseError, connection
from django.db.models import Q

from history import sql_skips
from history.models import JobHistory
from history.records import (
    HistoryRecord,
    HistoryUnavailable,
    RunCursor,
    attempts_from_json,
    attempts_to_json,
)

COLUMNS = [name for name in HistoryRecord.field_names() if name != "id"] + ["attempts"]


def _names_conflict_target() -> bool:
    return connection.features.supports_update_conflicts_with_target


def _record(row: JobHistory) -> HistoryRecord:
    values = {name: getattr(row, name) for name in HistoryRecord.field_names()}
    return HistoryRecord(**values, attempts=attempts_from_json(row.attempts))


def _row(record: HistoryRecord) -> JobHistory:
    values = {name: getattr(record, name) for name in record.field_names()}
    return JobHistory(**values, attempts=attempts_to_json(record.attempts))


class SqlHistoryStore:
    # The skipped-run ledger's entries (history/sql_skips.py).
    write_skips = staticmethod(sql_skips.write_skips)
    task_skips = staticmethod(sql_skips.task_skips)
    purge_skips = staticmethod(sql_skips.purge_skips)

    def write(self, records: list[HistoryRecord]) -> None:
        rows = [_row(record) for record in records]
        # MySQL upserts on any unique key; SQLite needs the conflict target named.
        target = {"unique_fields": ["id"]} if _names_conflict_target() else {}
        try:
            JobHistory.objects.bulk_create(
                rows, update_conflicts=True, update_fields=[*COLUMNS, "archived_at"], **target
            )
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history write failed: {exc}") from exc

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        try:
            row = JobHistory.objects.filter(tenant_id=tenant_id, id=job_id).first()
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history read failed: {exc}") from exc
        return _record(row) if row else None

    def task_runs(
        self, *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: RunCursor | None, limit: int
    ) -> list[HistoryRecord]:
        query = JobHistory.objects.filter(tenant_id=tenant_id, task_id=task_id)
        if before is not None:
            query = query.filter(
                Q(scheduled_at__lt=before.scheduled_at)
                | Q(scheduled_at=before.scheduled_at, id__lt=before.job_id)
            )
        try:
            rows = list(query.order_by("-scheduled_at", "-id")[:limit])
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history read failed: {exc}") from exc
        return [_record(row) for row in rows]

    def purge(self, *, archived_before: datetime, batch_size: int) -> int:
        """Delete rows past the retention, one bounded batch at a time."""
        ids = list(
            JobHistory.objects.filter(archived_at__lt=archived_before)
            .order_by("archived_at")
            .values_list("id", flat=True)[:batch_size]
        )
        if not ids:
            return 0
        deleted, _ = JobHistory.objects.filter(id__in=ids).delete()
        return deleted
