"""The jobs of an executor whose heartbeat went stale go back before their leases
(jobs/queue/dead_holders.py), fenced by their attempt."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.models import ProcessHeartbeat
from jobs.models import Job, JobAttempt
from jobs.queue import JobResult, claim_jobs, record_results
from jobs.queue.dead_holders import LOOKBACK_SECONDS, LOST, return_dead_holders_jobs

pytestmark = pytest.mark.django_db(transaction=True)
DEAD_AFTER = 5


def claim_all(worker: str, lookahead: float = 0):
    return claim_jobs(
        worker_id=worker, critical_limit=10, normal_limit=10, lookahead_seconds=lookahead
    ).jobs


def beat_seconds_ago(worker: str, seconds: float) -> None:
    ProcessHeartbeat.objects.update_or_create(
        name="executor",
        instance_id=worker,
        defaults={"last_seen": datetime.now(UTC) - timedelta(seconds=seconds)},
    )


def reap():
    return return_dead_holders_jobs(dead_after=DEAD_AFTER)


def test_a_due_job_of_a_silent_executor_goes_back_as_a_lost_attempt(make_job):
    job = make_job("http://127.0.0.1/x")
    claim_all("gone")
    beat_seconds_ago("gone", DEAD_AFTER + 2)
    assert reap().lost == 1
    assert reap().total == 0  # once
    stored = Job.objects.get(id=job.id)
    assert (stored.status, stored.attempt, stored.worker_id) == ("pending", 1, None)
    assert stored.error == LOST
    attempt = JobAttempt.objects.get(job_id=job.id)
    assert (attempt.attempt, attempt.outcome, attempt.error) == (1, "retry", LOST)
    assert claim_all("next")[0].attempt == 2


def test_a_job_not_yet_due_goes_back_at_its_time_charging_no_attempt(make_job):
    due = datetime.now(UTC) + timedelta(seconds=60)
    job = make_job("http://127.0.0.1/x", due=due)
    claim_all("gone", lookahead=120)
    beat_seconds_ago("gone", DEAD_AFTER + 2)
    assert reap().unfired == 1
    stored = Job.objects.get(id=job.id)
    assert (stored.status, stored.worker_id, stored.error) == ("pending", None, None)
    assert abs((stored.next_attempt_at - due).total_seconds()) < 0.01
    assert stored.max_attempts - stored.attempt == job.max_attempts  # the attempt refunded
    assert not JobAttempt.objects.filter(job_id=job.id).exists()


def test_a_job_with_no_attempt_left_dies(make_job):
    job = make_job("http://127.0.0.1/x", max_attempts=1)
    claim_all("gone")
    beat_seconds_ago("gone", DEAD_AFTER + 2)
    reap()
    assert Job.objects.get(id=job.id).status == "dead"


def test_the_late_result_of_the_silent_executor_loses(make_job):
    job = make_job("http://127.0.0.1/x")
    [claimed] = claim_all("slow")
    beat_seconds_ago("slow", DEAD_AFTER + 2)
    reap()
    result = JobResult(claimed.key, claimed.attempt, "succeeded", finished_at=datetime.now(UTC))
    assert record_results(worker_id="slow", results=[result]) == 0
    assert Job.objects.get(id=job.id).status == "pending"


def test_a_live_executors_jobs_stay_with_it(make_job):
    make_job("http://127.0.0.1/x")
    claim_all("alive")
    beat_seconds_ago("alive", 1)
    assert reap().total == 0
    assert Job.objects.get().status == "running"


def test_a_holder_with_no_heartbeat_row_is_left_to_its_lease(make_job):
    make_job("http://127.0.0.1/x")
    claim_all("just-started")
    assert reap().total == 0
    assert Job.objects.get().worker_id == "just-started"


def test_a_holder_silent_beyond_the_lookback_is_left_to_its_lease(make_job):
    make_job("http://127.0.0.1/x")
    claim_all("long-gone")
    beat_seconds_ago("long-gone", LOOKBACK_SECONDS + 60)
    assert reap().total == 0


def test_a_job_claimed_again_by_a_live_executor_is_not_taken_back(make_job):
    job = make_job("http://127.0.0.1/x")
    claim_all("gone")
    beat_seconds_ago("gone", DEAD_AFTER + 2)
    reap()
    claim_all("alive")
    beat_seconds_ago("alive", 0)
    assert reap().total == 0
    stored = Job.objects.get(id=job.id)
    assert (stored.status, stored.worker_id, stored.attempt) == ("running", "alive", 2)


def test_only_the_silent_executors_jobs_go_back(make_job):
    make_job("http://127.0.0.1/a")
    claim_all("gone")
    make_job("http://127.0.0.1/b")
    claim_all("alive")
    beat_seconds_ago("gone", DEAD_AFTER + 2)
    beat_seconds_ago("alive", 0)
    returned = reap()
    assert (returned.holders, returned.total) == (1, 1)
    assert Job.objects.get(status="running").worker_id == "alive"
