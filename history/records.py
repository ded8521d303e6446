"""What the history keeps of a finished job, and the interface every store implements."""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class AttemptRecord:
    """One call of a job: when it started, how long it took, what came back."""

    attempt: int
    started_at: datetime
    outcome: str  # succeeded, retry or dead
    duration_ms: int | None = None
    http_status: int | None = None
    error: str | None = None
    response_head: str | None = None


def attempts_to_json(attempts: tuple[AttemptRecord, ...]) -> str | None:
    """The attempts as one JSON text: how both history stores keep them beside the job."""
    if not attempts:
        return None
    rows = [{**asdict(a), "started_at": a.started_at.isoformat()} for a in attempts]
    return json.dumps(rows, separators=(",", ":"))


def attempts_from_json(text: str | None) -> tuple[AttemptRecord, ...]:
    if not text:
        return ()
    rows = json.loads(text)
    return tuple(
        AttemptRecord(**{**row, "started_at": datetime.fromisoformat(row["started_at"])})
        for row in rows
    )


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
    claimed_at: datetime | None = None
    attempts: tuple[AttemptRecord, ...] = ()
    # The job's labels while it is in the queue; the history stores keep none (an archived
    # job shows `{}` and matches no label filter).
    labels: dict | None = None

    @classmethod
    def field_names(cls) -> list[str]:
        """The job's own columns as the history keeps them (its attempts travel beside)."""
        return [f.name for f in fields(cls) if f.name not in ("attempts", "labels")]


@dataclass(frozen=True)
class RunCursor:
    """A position in a task's runs, newest first: strictly older than this run."""

    scheduled_at: datetime
    job_id: uuid.UUID

    def key(self) -> tuple[datetime, uuid.UUID]:
        return (self.scheduled_at, self.job_id)


@dataclass(frozen=True)
class SkipRecord:
    """One entry of a task's skipped-run ledger (tasks.models.SkippedRun) as kept."""

    id: uuid.UUID
    tenant_id: uuid.UUID
    task_id: uuid.UUID
    reason: str
    first_scheduled_at: datetime
    last_scheduled_at: datetime
    count: int
    recorded_at: datetime

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass(frozen=True)
class SkipCursor:
    """A position in a task's ledger, newest first: strictly older than this entry."""

    last_scheduled_at: datetime
    entry_id: uuid.UUID

    def key(self) -> tuple[datetime, uuid.UUID]:
        return (self.last_scheduled_at, self.entry_id)


class HistoryUnavailable(Exception):
    """The history store could not answer; a read must fail rather than look complete.
    `retry_after`: the seconds before the store is asked again, when that is known."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class HistoryStore(Protocol):
    def write(self, records: list[HistoryRecord]) -> None:
        """Idempotent upsert of finished jobs (writing one twice is harmless)."""

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        """One job of one tenant (another tenant's job is not found)."""

    def find(self, *, job_id: uuid.UUID, tenant_ids: list[uuid.UUID]) -> HistoryRecord | None:
        """One job by its id alone, for operators' pages. `tenant_ids`: every tenant that may
        own it; a store keyed by tenant asks each, one keyed by the job's id needs none."""

    def newest_runs(
        self, *, tasks: list[tuple[uuid.UUID, uuid.UUID]]
    ) -> dict[uuid.UUID, HistoryRecord]:
        """The newest run of each (tenant, task) that has one, by task id: a page of the
        console's task list in one batch."""

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

    def write_skips(self, records: list[SkipRecord]) -> None:
        """Idempotent upsert of skipped-run ledger entries (by entry id)."""

    def task_skips(
        self,
        *,
        tenant_id: uuid.UUID,
        task_id: uuid.UUID,
        before: SkipCursor | None,
        limit: int,
    ) -> list[SkipRecord]:
        """A task's ledger entries newest first (last_scheduled_at, then id, descending),
        strictly older than `before` when given."""
