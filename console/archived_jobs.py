"""The console's reads of archived jobs: the jobs the archiver moved from the queue to the
history store (SQL or Cassandra), which the API still serves by id."""

from __future__ import annotations

import uuid
from datetime import datetime

from history.records import HistoryRecord, RunCursor
from history.stores import history_reader
from tasks.models import Tenant

RUNS_PER_PAGE = 50


def parsed_uuid(text: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(text).strip())
    except (TypeError, ValueError):
        return None


def archived_job(*, job_id: uuid.UUID, tenant_id: uuid.UUID | None) -> HistoryRecord | None:
    """One archived job; with its tenant one read, without it the store looks for it among
    every tenant's (the console's own links carry the tenant). Raises HistoryUnavailable."""
    if tenant_id is not None:
        return history_reader().get(tenant_id=tenant_id, job_id=job_id)
    tenants = list(Tenant.objects.order_by().values_list("id", flat=True))
    return history_reader().find(job_id=job_id, tenant_ids=tenants)


def archived_runs(
    *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: RunCursor | None
) -> tuple[list[HistoryRecord], RunCursor | None]:
    """One page of a task's archived runs, newest first, and the cursor of the next."""
    runs = history_reader().task_runs(
        tenant_id=tenant_id, task_id=task_id, before=before, limit=RUNS_PER_PAGE + 1
    )
    if len(runs) <= RUNS_PER_PAGE:
        return runs, None
    last = runs[RUNS_PER_PAGE - 1]
    return runs[:RUNS_PER_PAGE], RunCursor(last.scheduled_at, last.id)


def cursor_text(cursor: RunCursor | None) -> str | None:
    return None if cursor is None else f"{cursor.scheduled_at.isoformat()}_{cursor.job_id}"


def cursor_from(text: str | None) -> RunCursor | None:
    """The cursor of an "older" link; anything unreadable starts from the newest."""
    moment, _, job_id = (text or "").rpartition("_")
    parsed = parsed_uuid(job_id)
    if not moment or parsed is None:
        return None
    try:
        return RunCursor(datetime.fromisoformat(moment), parsed)
    except ValueError:
        return None
