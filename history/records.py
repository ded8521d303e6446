"""What the history keeps of a finished job, and the interface every store implements."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class HistoryRecord:
    id: uuid.UUID
    tenant_id: uuid.UUID
    task_id: uuid.UUID
    scheduled_at: datetime
    status: str
    attempt: int
    max_attempts: int
    priority: int
    next_attempt_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    http_status: int | None = None
    error: str | None = None
    response_body: str | None = None
    duration_ms: int | None = None

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass(frozen=True)
class RunCursor:
    """A position in a task's runs, newest first: strictly older than this run."""

    scheduled_at: datetime
    job_id: uuid.UUID

    def key(self) -> tuple[datetime, uuid.UUID]:
        return (self.scheduled_at, self.job_id)


class HistoryUnavailable(Exception):
    """The history store could not answer; a read must fail rather than look complete."""


class HistoryStore(Protocol):
    def write(self, records: list[HistoryRecord]) -> None:
        """Idempotent upsert of finished jobs (writing one twice is harmless)."""

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        """One job of one tenant (another tenant's job is not found)."""

    def task_runs(
        self,
        *,
        tenant_id: uuid.UUID,
        task_id: uuid.UUID,
        before: RunCursor | None,
        limit: int,
    ) -> list[HistoryRecord]:
        """A task's runs newest first (scheduled_at, then job id, descending), strictly
        older than `before` when given."""
