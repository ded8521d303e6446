"""The attempts log: every call of a job is kept, with when it started and what came back."""

from datetime import UTC, datetime, timedelta

import pytest

from history.sql_store import SqlHistoryStore
from jobs.archive import archive_batch
from jobs.attempts import attempts_for
from jobs.models import Job, JobAttempt
from jobs.queue import JobResult, claim_jobs, reconcile_expired_leases, record_results
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


def run_to_the_end(job, run_executor) -> Job:
    run_executor()
    wait_for_status([job], {"succeeded", "dead"}, timeout=30)
    return Job.objects.get(id=job.id)


def test_a_job_that_failed_twice_then_succeeded_shows_three_attempts(
    endpoint, make_job, run_executor
):
    job = make_job(endpoint.url("/fail/2"), max_attempts=5, backoff_base_seconds=0)
    run_to_the_end(job, run_executor)
    attempts = attempts_for(job_id=job.id)
    assert [a.attempt for a in attempts] == [1, 2, 3]
    assert [a.outcome for a in attempts] == ["retry", "retry", "succeeded"]
    assert [a.http_status for a in attempts] == [500, 500, 200]
    assert attempts[0].error == "HTTP 500" and attempts[0].response_head == "failing"
    assert attempts[2].error is None and attempts[2].response_head == "ok"


def test_the_last_attempt_of_a_dead_job_says_dead(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/status/500"), max_attempts=2, backoff_base_seconds=0)
    run_to_the_end(job, run_executor)
    assert [a.outcome for a in attempts_for(job_id=job.id)] == ["retry", "dead"]


def test_started_at_is_the_calls_start_not_the_claim(endpoint, make_job, run_executor):
    due = datetime.now(UTC) + timedelta(seconds=1.5)
    job = make_job(endpoint.url("/ok"), due=due)
    stored = run_to_the_end(job, run_executor)
    assert stored.claimed_at < due  # claimed ahead of its second, held on a timer
    assert due <= stored.started_at < due + timedelta(seconds=0.5)
    (attempt,) = attempts_for(job_id=job.id)
    assert attempt.started_at == stored.started_at


def test_a_long_response_keeps_only_its_head_in_the_attempt(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/big"))
    stored = run_to_the_end(job, run_executor)
    (attempt,) = attempts_for(job_id=job.id)
    assert len(attempt.response_head) == 256
    assert stored.response_body.startswith(attempt.response_head)


def test_a_stale_result_writes_no_attempt(make_job):
    job = make_job("http://127.0.0.1:9/never")
    claim_jobs(worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    now = datetime.now(UTC)
    stale = JobResult(str(job.id), 1, "succeeded", finished_at=now, started_at=now)
    assert record_results(worker_id="someone-else", results=[stale]) == 0
    assert not JobAttempt.objects.filter(job_id=job.id).exists()


def test_a_result_without_a_call_writes_no_attempt(make_job):
    job = make_job("http://127.0.0.1:9/never")
    batch = claim_jobs(worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    (claimed,) = batch.jobs
    cancel = JobResult(claimed.key, 1, "cancelled", finished_at=datetime.now(UTC))
    assert record_results(worker_id="a", results=[cancel]) == 1
    assert not JobAttempt.objects.filter(job_id=job.id).exists()


def test_the_archive_carries_the_attempts_into_the_history(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/fail/1"), max_attempts=3, backoff_base_seconds=0)
    run_to_the_end(job, run_executor)
    Job.objects.filter(id=job.id).update(finished_at=datetime.now(UTC) - timedelta(days=30))
    store = SqlHistoryStore()
    assert archive_batch(store=store) == (1, 1)
    record = store.get(tenant_id=job.tenant_id, job_id=job.id)
    assert [(a.attempt, a.outcome) for a in record.attempts] == [(1, "retry"), (2, "succeeded")]
    assert not JobAttempt.objects.filter(job_id=job.id).exists()


def test_an_expired_lease_is_logged_as_an_attempt_that_was_never_heard_of(make_job):
    job = make_job("http://127.0.0.1:9/never", max_attempts=2)
    claim_jobs(worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    Job.objects.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert reconcile_expired_leases() == 1
    (attempt,) = attempts_for(job_id=job.id)
    stored = Job.objects.get(id=job.id)
    assert (attempt.attempt, attempt.outcome, attempt.error) == (1, "retry", "lease expired")
    assert attempt.started_at == max(stored.claimed_at, job.next_attempt_at)
    assert attempt.http_status is None and attempt.duration_ms is None


def test_a_reconciled_job_on_its_last_attempt_logs_it_as_dead(make_job):
    job = make_job("http://127.0.0.1:9/never", max_attempts=1)
    claim_jobs(worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    Job.objects.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))
    reconcile_expired_leases()
    assert [a.outcome for a in attempts_for(job_id=job.id)] == ["dead"]
