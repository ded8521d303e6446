"""A task's skipped-run ledger for the tenant API: the live entries (skipped_runs) and the
archived ones (the history store) merged newest first. A failing store fails the read: a
partial ledger would look complete."""

from __future__ import annotations

import uuid

from django.db.models import Q

from history.records import HistoryUnavailable, SkipCursor, SkipRecord
from history.stores import history_reader
from scheduler_site.errors import ServiceUnavailable
from tasks.models import SkippedRun, Tenant
from tasks.services import task_get


def skip_record(entry: SkippedRun) -> SkipRecord:
    return SkipRecord(**{name: getattr(entry, name) for name in SkipRecord.field_names()})


def task_skipped_runs(
    *, tenant: Tenant, task_id: uuid.UUID, before: SkipCursor | None, limit: int
) -> tuple[list[SkipRecord], SkipCursor | None]:
    """One page of the task's ledger, newest first, and the cursor of the next page."""
    task_get(tenant=tenant, task_id=task_id)
    return ledger_page(tenant_id=tenant.id, task_id=task_id, before=before, limit=limit)


def ledger_page(
    *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int
) -> tuple[list[SkipRecord], SkipCursor | None]:
    """The same page for any task, deleted ones included (the console's)."""
    live = [skip_record(entry) for entry in _live(tenant_id, task_id, before, limit + 1)]
    try:
        archived = history_reader().task_skips(
            tenant_id=tenant_id, task_id=task_id, before=before, limit=limit + 1
        )
    except HistoryUnavailable as exc:
        raise ServiceUnavailable(
            "the task's history is unavailable; try again", retry_after=exc.retry_after
        ) from exc
    merged = _merged(live, archived)
    if len(merged) > limit:
        last = merged[limit - 1]
        return merged[:limit], SkipCursor(last.last_scheduled_at, last.id)
    return merged, None


def _live(tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int) -> list:
    query = SkippedRun.objects.filter(tenant_id=tenant_id, task_id=task_id)
    if before is not None:
        query = query.filter(
            Q(last_scheduled_at__lt=before.last_scheduled_at)
            | Q(last_scheduled_at=before.last_scheduled_at, id__lt=before.entry_id)
        )
    return list(query.order_by("-last_scheduled_at", "-id")[:limit])


def _merged(live: list[SkipRecord], archived: list[SkipRecord]) -> list[SkipRecord]:
    """Newest first; an entry in both (archived, its delete not yet made) appears once, as
    the live table has it."""
    by_id = {record.id: record for record in archived}
    by_id.update({record.id: record for record in live})
    return sorted(by_id.values(), key=lambda r: (r.last_scheduled_at, r.id), reverse=True)
