"""A job's attempts, as the job's page in the admin lists them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from jobs.models import Job

RESPONSE_HEAD_CHARS = 200


@dataclass(frozen=True)
class AttemptRow:
    attempt: int
    started_at: datetime | None
    duration_ms: int | None
    http_status: int | None
    error: str | None
    response_head: str | None


def job_attempts(job: Job) -> list[AttemptRow]:
    """The job's attempts, last first. The queue row keeps only the last attempt; the
    attempts log (jobs/attempts.py) replaces this with every one once it is merged."""
    if not job.attempt or job.started_at is None:
        return []
    head = (job.response_body or "")[:RESPONSE_HEAD_CHARS] or None
    return [
        AttemptRow(job.attempt, job.started_at, job.duration_ms, job.http_status, job.error, head)
    ]
