"""An executor claims a burst due ahead only up to 5 jobs per call slot: the rest is left to
the other executors, so the first to poll does not drain the burst alone."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection


def held_by(worker_id: str) -> int:
    return Job.objects.filter(worker_id=worker_id).count()


def test_a_burst_due_ahead_is_split_between_two_executors(endpoint, make_job, run_executor):
    due = datetime.now(UTC) + timedelta(seconds=4)
    jobs = [make_job(endpoint.url("/ok"), due=due) for _ in range(15)]
    # 2 slots hold 10 jobs, one of them kept for priority 0: 9 of these.
    run_executor(worker_id="first", concurrency=2, claim_batch=4, horizon_seconds=5)
    wait_until(lambda: held_by("first") == 9, timeout=10, message="the first claimed no 9")
    run_executor(worker_id="second", concurrency=2, claim_batch=4, horizon_seconds=5)
    wait_until(lambda: held_by("second") == 6, timeout=10, message="the rest was not left")
    assert held_by("first") == 9
    wait_for_status(jobs, {"succeeded"}, timeout=30)
    assert len(endpoint.received) == 15
