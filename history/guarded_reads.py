"""The history as the tenant API reads it: every read, connecting included, through a breaker.

Writes are not here: the archiver writes through `history_store()` and waits out an outage
with its own backoff.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from history.breaker import Breaker
from history.records import HistoryRecord, HistoryStore, RunCursor, SkipCursor, SkipRecord


class GuardedReads:
    def __init__(self, open_store: Callable[[], HistoryStore], breaker: Breaker) -> None:
        self._open_store = open_store
        self._breaker = breaker

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        return self._breaker.call(
            lambda: self._open_store().get(tenant_id=tenant_id, job_id=job_id)
        )

    def find(self, *, job_id: uuid.UUID, tenant_ids: list[uuid.UUID]) -> HistoryRecord | None:
        return self._breaker.call(
            lambda: self._open_store().find(job_id=job_id, tenant_ids=tenant_ids)
        )

    def newest_runs(
        self, *, tasks: list[tuple[uuid.UUID, uuid.UUID]]
    ) -> dict[uuid.UUID, HistoryRecord]:
        return self._breaker.call(lambda: self._open_store().newest_runs(tasks=tasks))

    def task_runs(
        self, *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: RunCursor | None, limit: int
    ) -> list[HistoryRecord]:
        return self._breaker.call(
            lambda: self._open_store().task_runs(
                tenant_id=tenant_id, task_id=task_id, before=before, limit=limit
            )
        )

    def task_skips(
        self, *, tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int
    ) -> list[SkipRecord]:
        return self._breaker.call(
            lambda: self._open_store().task_skips(
                tenant_id=tenant_id, task_id=task_id, before=before, limit=limit
            )
        )
