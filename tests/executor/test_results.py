"""Results: retries with backoff, dead after the last attempt, fenced late writes."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs import queue
from jobs.models import Job
from jobs.queue import JobResult, claim_jobs, reconcile_expired_leases, record_results
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "base, attempt, expected",
    [(10, 1, 10), (10, 2, 20), (10, 3, 40), (10, 10, 5120), (3600, 6, 86400), (1, 60, 86400)],
)
def test_backoff_doubles_per_attempt_and_is_capped_at_one_day(base, attempt, expected):
    assert queue.retry_delay(backoff_base_seconds=base, attempt=attempt, retry_after=None) == (
        expected
    )


@pytest.mark.parametrize("retry_after, expected", [(7, 7), (0, 0), (10**9, 86400)])
def test_retry_after_wins_within_the_cap(retry_after, expected):
    assert queue.retry_delay(backoff_base_seconds=10, attempt=3, retry_after=retry_after) == (
        expected
    )


def wait_for_retry(job, attempt: int) -> None:
    """Until the job waits, pending, for the attempt after `attempt`."""
    wait_until(
        lambda: Job.objects.filter(id=job.id, attempt=attempt, status="pending").exists(),
        timeout=10,
        message=f"attempt {attempt} was not scheduled for a retry",
    )


def test_failed_call_is_retried_after_the_backoff(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/status/500"), max_attempts=3, backoff_base_seconds=30)
    before = datetime.now(UTC)
    run_executor()
    wait_for_retry(job, 1)
    stored = Job.objects.get(id=job.id)
    assert stored.http_status == 500 and stored.error == "HTTP 500"
    assert stored.worker_id is None and stored.lease_expires_at is None
    delay = (stored.next_attempt_at - before).total_seconds()
    assert 29 <= delay <= 32


def test_429_with_retry_after_is_retried_when_the_server_asks(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/status/429"), max_attempts=3, backoff_base_seconds=600)
    before = datetime.now(UTC)
    run_executor()
    wait_for_retry(job, 1)
    delay = (Job.objects.get(id=job.id).next_attempt_at - before).total_seconds()
    assert 6 <= delay <= 9  # the endpoint says Retry-After: 7


def test_job_that_keeps_failing_is_dead_after_max_attempts(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/status/503"), max_attempts=3, backoff_base_seconds=1)
    executor = run_executor()
    for attempt in (1, 2):
        wait_for_retry(job, attempt)
        Job.objects.filter(id=job.id).update(next_attempt_at=datetime.now(UTC))  # skip the wait
    wait_for_status([job], {"dead"})
    stored = Job.objects.get(id=job.id)
    assert stored.attempt == 3 and stored.finished_at is not None
    assert [r.headers["X-Attempt"] for r in endpoint.requests_for("/status/503")] == ["1", "2", "3"]
    assert len({r.headers["Idempotency-Key"] for r in endpoint.requests_for("/status")}) == 1
    executor.stop()


def test_endpoint_that_fails_twice_then_succeeds_ends_succeeded(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/fail/2"), max_attempts=5, backoff_base_seconds=1)
    run_executor()
    # Each retry is due within the executor's horizon, so it is claimed again at once and
    # held on a timer: the backoffs (1 s, then 2 s) pass without a poll in between.
    wait_for_status([job], {"succeeded"}, timeout=20)
    assert Job.objects.get(id=job.id).attempt == 3


# --- the late result race (DESIGN section 3), on the real queue statements --------------------


def claim_one(worker: str):
    batch = claim_jobs(worker_id=worker, critical_limit=10, normal_limit=10, lookahead_seconds=0)
    assert len(batch.jobs) == 1
    return batch.jobs[0]


def succeeded(job) -> JobResult:
    return JobResult(
        job.key, job.attempt, "succeeded", finished_at=datetime.now(UTC), http_status=200
    )


def expire_lease(job_id) -> None:
    Job.objects.filter(id=job_id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))


def test_late_result_before_the_reconciler_wins(make_job):
    job = make_job("http://127.0.0.1/x")
    claimed = claim_one("a")
    assert record_results(worker_id="a", results=[succeeded(claimed)]) == 1
    expire_lease(job.id)
    assert reconcile_expired_leases() == 0
    assert Job.objects.get(id=job.id).status == "succeeded"


def test_late_result_after_the_reconciler_is_dropped_and_the_job_runs_again(make_job):
    job = make_job("http://127.0.0.1/x")
    claimed = claim_one("a")
    expire_lease(job.id)
    assert reconcile_expired_leases() == 1
    assert record_results(worker_id="a", results=[succeeded(claimed)]) == 0
    stored = Job.objects.get(id=job.id)
    assert stored.status == "pending" and stored.error == "lease expired"
    assert claim_one("b").attempt == 2


def test_late_result_after_the_next_claim_is_dropped_even_from_the_same_worker(make_job):
    job = make_job("http://127.0.0.1/x")
    first = claim_one("a")
    expire_lease(job.id)
    reconcile_expired_leases()
    second = claim_one("a")
    assert record_results(worker_id="a", results=[succeeded(first)]) == 0
    stored = Job.objects.get(id=job.id)
    assert (stored.status, stored.attempt, stored.worker_id) == ("running", 2, "a")
    assert record_results(worker_id="a", results=[succeeded(second)]) == 1


def test_result_from_another_worker_is_dropped(make_job):
    make_job("http://127.0.0.1/x")
    claimed = claim_one("a")
    assert record_results(worker_id="b", results=[succeeded(claimed)]) == 0


def test_reconciler_marks_dead_when_no_attempt_is_left(make_job):
    job = make_job("http://127.0.0.1/x", max_attempts=1)
    claim_one("a")
    expire_lease(job.id)
    assert reconcile_expired_leases() == 1
    stored = Job.objects.get(id=job.id)
    assert stored.status == "dead" and stored.attempt == 1


def test_reconciler_leaves_unexpired_leases_alone(make_job):
    job = make_job("http://127.0.0.1/x")
    claim_one("a")
    assert reconcile_expired_leases() == 0
    assert Job.objects.get(id=job.id).status == "running"


def test_lease_of_a_job_claimed_ahead_starts_at_its_own_time(make_job):
    due = datetime.now(UTC) + timedelta(seconds=5)
    job = make_job("http://127.0.0.1/x", due=due, timeout_seconds=10)
    batch = claim_jobs(worker_id="a", critical_limit=5, normal_limit=5, lookahead_seconds=6)
    assert len(batch.jobs) == 1
    lease = Job.objects.get(id=job.id).lease_expires_at
    assert abs((lease - (due + timedelta(seconds=40))).total_seconds()) < 0.5
