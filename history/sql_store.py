"""The SQL history store: the embedded default, also fine for small MySQL installs."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import DatabaseError
from django.db.models import Max, Q

from history import sql_skips
from history.models import JobHistory
from history.records import (
    HistoryRecord,
    HistoryUnavailable,
    RunCursor,
    attempts_from_json,
    attempts_to_json,
)
from history.sql_rows import newest_first, purge_batch, upsert

COLUMNS = [name for name in HistoryRecord.field_names() if name != "id"] + ["attempts"]


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
        upsert(JobHistory, [_row(record) for record in records], [*COLUMNS, "archived_at"])

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        try:
            row = JobHistory.objects.filter(tenant_id=tenant_id, id=job_id).first()
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history read failed: {exc}") from exc
        return _record(row) if row else None

    def find(self, *, job_id: uuid.UUID, tenant_ids: list[uuid.UUID]) -> HistoryRecord | None:
        try:  # the job's id is the table's key: no tenant is needed to find it
            row = JobHistory.objects.filter(id=job_id).first()
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history read failed: {exc}") from exc
        return _record(row) if row else None

    def task_runs(
        self, *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: RunCursor | None, limit: int
    ) -> list[HistoryRecord]:
        query = JobHistory.objects.filter(tenant_id=tenant_id, task_id=task_id)
        cursor = before.key() if before is not None else None
        return [_record(row) for row in newest_first(query, "scheduled_at", cursor, limit)]

    def newest_runs(
        self, *, tasks: list[tuple[uuid.UUID, uuid.UUID]]
    ) -> dict[uuid.UUID, HistoryRecord]:
        if not tasks:
            return {}
        query = JobHistory.objects.filter(
            tenant_id__in={tenant for tenant, _ in tasks}, task_id__in={task for _, task in tasks}
        )
        try:  # the newest instant of each task, then its rows at that instant
            newest = list(query.values("task_id").annotate(at=Max("scheduled_at")).order_by())
            matches = Q(pk__in=[])
            for row in newest:
                matches |= Q(task_id=row["task_id"], scheduled_at=row["at"])
            rows = list(query.filter(matches).order_by("scheduled_at", "id")) if newest else []
        except DatabaseError as exc:
            raise HistoryUnavailable(f"history read failed: {exc}") from exc
        return {row.task_id: _record(row) for row in rows}  # the highest id wins a tie

    def purge(self, *, archived_before: datetime, batch_size: int) -> int:
        """Delete rows past the retention, one bounded batch at a time."""
        return purge_batch(JobHistory, archived_before, batch_size)
