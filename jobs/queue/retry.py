"""The rule of a result: succeeded, pending for a retry after a backoff, or dead."""

from __future__ import annotations

from datetime import datetime, timedelta

from jobs.models import JobStatus
from jobs.queue.rows import ClaimedJob, JobResult

MAX_BACKOFF_SECONDS = 86400


def retry_delay(*, backoff_base_seconds: int, attempt: int, retry_after: float | None) -> float:
    """backoff_base * 2^(attempt-1), capped at one day; a server's Retry-After wins within
    the cap."""
    if retry_after is not None:
        return min(max(retry_after, 0.0), MAX_BACKOFF_SECONDS)
    exponent = min(attempt - 1, 32)
    return min(backoff_base_seconds * 2**exponent, MAX_BACKOFF_SECONDS)


def outcome(
    job: ClaimedJob,
    *,
    succeeded: bool,
    now: datetime,
    retry_after: float | None = None,
    **details,
) -> JobResult:
    """The result row of one attempt: succeeded, pending for a retry, or dead."""
    if succeeded or job.attempt >= job.max_attempts:
        status = JobStatus.SUCCEEDED if succeeded else JobStatus.DEAD
        return JobResult(
            job.key,
            job.attempt,
            status,
            finished_at=now,
            releases=job.buffers,
            calls_back=job.calls_back,
            flow_id=job.flow_id,
            **details,
        )
    delay = retry_delay(
        backoff_base_seconds=job.backoff_base_seconds, attempt=job.attempt, retry_after=retry_after
    )
    return JobResult(
        job.key,
        job.attempt,
        JobStatus.PENDING,
        next_attempt_at=now + timedelta(seconds=delay),
        flow_id=job.flow_id,
        **details,
    )
