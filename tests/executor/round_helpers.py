"""A database round of its own, run in the test's thread, with jobs it has claimed."""

from __future__ import annotations

from datetime import UTC, datetime

from execution.executor_outbox import Outbox
from execution.executor_round import DatabaseRound, RoundLimits
from jobs.queue import ClaimedJob, JobResult, claim_jobs

WORKER = "round-test"


def a_round(*, result_batch_bytes: int = 1024 * 1024) -> DatabaseRound:
    limits = RoundLimits(
        horizon_seconds=5,
        max_held=1000,
        reserved_for_critical=1,
        claim_batch=100,
        result_batch=500,
        result_batch_bytes=result_batch_bytes,
        backlog=1000,
    )
    return DatabaseRound(worker_id=WORKER, outbox=Outbox(), limits=limits)


def claim(count: int) -> list[ClaimedJob]:
    jobs = claim_jobs(
        worker_id=WORKER, critical_limit=count, normal_limit=count, lookahead_seconds=5
    ).jobs
    assert len(jobs) == count
    return jobs


def succeeded(job: ClaimedJob, **fields) -> JobResult:
    fields = {"response_body": "ok", "duration_ms": 5, "http_status": 200, **fields}
    now = datetime.now(UTC)
    return JobResult(
        job.key,
        job.attempt,
        "succeeded",
        finished_at=now,
        started_at=now,
        flow_id=job.flow_id,  # as the executor's outcome() carries it
        **fields,
    )
