"""Claims as an executor makes them, for the tests of the flows API."""

from jobs.queue import ClaimBatch, claim_jobs
from tests.executor.round_helpers import WORKER


def claim(count: int = 100) -> ClaimBatch:
    return claim_jobs(
        worker_id=WORKER, critical_limit=count, normal_limit=count, lookahead_seconds=5
    )
