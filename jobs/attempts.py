"""The attempts log: every call of a job, as the executor's result batch wrote it."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from history.records import AttemptRecord
from jobs.models import JobAttempt


def _record(row: JobAttempt) -> AttemptRecord:
    return AttemptRecord(
        attempt=row.attempt,
        started_at=row.started_at,
        outcome=row.outcome,
        duration_ms=row.duration_ms,
        http_status=row.http_status,
        error=row.error,
        response_head=row.response_head,
    )


def attempts_for(*, job_id: uuid.UUID) -> list[AttemptRecord]:
    """A job's attempts in the queue, first call first."""
    return [_record(row) for row in JobAttempt.objects.filter(job_id=job_id).order_by("attempt")]


def attempts_by_job(job_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, tuple[AttemptRecord, ...]]:
    """The attempts of many jobs at once (the archive's batch), keyed by job id."""
    found: dict[uuid.UUID, list[AttemptRecord]] = {}
    rows = JobAttempt.objects.filter(job_id__in=list(job_ids)).order_by("job_id", "attempt")
    for row in rows:
        found.setdefault(row.job_id, []).append(_record(row))
    return {job_id: tuple(attempts) for job_id, attempts in found.items()}
