"""The scheduled instants of a task whose runs were archived, in a backfill's range.

Read through the tenant API's history reader (its breaker included), page after page newest
first from the range's end until a run older than its start. A store that does not answer
fails the backfill with 503: without the history, an archived run would be made twice.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from history.records import HistoryUnavailable, RunCursor
from history.stores import history_reader
from jobs.backfill_range import BackfillRange
from scheduler_site.errors import ServiceUnavailable
from tasks.models import Task

PAGE = 500
FIRST_ID = uuid.UUID(int=0)  # below every id: a cursor at `end` leaves `end` itself out


def archived_instants(task: Task, window: BackfillRange) -> set[datetime]:
    found: set[datetime] = set()
    before = RunCursor(window.end, FIRST_ID)
    while True:
        page = _page(task, before)
        for record in page:
            if record.scheduled_at < window.start:
                return found
            found.add(record.scheduled_at)
        if len(page) < PAGE:
            return found
        before = RunCursor(page[-1].scheduled_at, page[-1].id)


def _page(task: Task, before: RunCursor) -> list:
    try:
        return history_reader().task_runs(
            tenant_id=task.tenant_id, task_id=task.id, before=before, limit=PAGE
        )
    except HistoryUnavailable as exc:
        raise ServiceUnavailable(
            "the job history is unavailable; try again", retry_after=exc.retry_after
        ) from exc
