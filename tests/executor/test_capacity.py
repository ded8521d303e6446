"""Capacity: graceful stop, critical jobs first, one tenant cannot starve another."""

import statistics
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from jobs.queue import JobResult, record_results
from tasks.models import Tenant
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_stop_hands_back_parked_jobs_without_charging_an_attempt(endpoint, make_job, run_executor):
    job = make_job(
        endpoint.url("/ok"), due=datetime.now(UTC) + timedelta(seconds=20), max_attempts=3
    )
    executor = run_executor(poll_interval=30, horizon_seconds=60)
    wait_until(
        lambda: Job.objects.get(id=job.id).status == "running",
        timeout=10,
        message="job was not claimed",
    )
    executor.stop()
    stored = Job.objects.get(id=job.id)
    assert (stored.status, stored.attempt, stored.max_attempts) == ("pending", 1, 4)
    assert stored.worker_id is None and stored.lease_expires_at is None
    assert endpoint.received == []


def test_a_stale_write_for_a_handed_back_claim_never_wins(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"), due=datetime.now(UTC) + timedelta(seconds=20))
    executor = run_executor(poll_interval=30, horizon_seconds=60, worker_id="w1")
    wait_until(
        lambda: Job.objects.get(id=job.id).status == "running",
        timeout=10,
        message="job was not claimed",
    )
    executor.stop()
    stale = JobResult(
        Job.objects.get(id=job.id).id.__str__(), 1, "succeeded", finished_at=datetime.now(UTC)
    )
    assert record_results(worker_id="w1", results=[stale]) == 0
    assert Job.objects.get(id=job.id).status == "pending"


def test_stop_lets_calls_in_flight_finish_and_records_them(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/slow/1"))
    executor = run_executor()
    wait_until(lambda: len(endpoint.received) == 1, timeout=10, message="call not made")
    executor.stop()
    assert Job.objects.get(id=job.id).status == "succeeded"


def test_critical_jobs_overtake_a_queue(endpoint, make_job, run_executor):
    bulk = [make_job(endpoint.url(f"/slow/0.2?bulk={i}"), priority=5) for i in range(300)]
    critical = [make_job(endpoint.url(f"/ok?critical={i}"), priority=0) for i in range(10)]
    run_executor(concurrency=20, critical_share=0.2)
    wait_for_status(critical, {"succeeded"}, timeout=10)
    done_bulk = Job.objects.filter(id__in=[j.id for j in bulk], status="succeeded").count()
    assert done_bulk < 150, "critical jobs waited for the bulk"
    critical_arrivals = [r.at for r in endpoint.requests_for("/ok?critical")]
    bulk_arrivals = sorted(r.at for r in endpoint.requests_for("/slow"))
    assert max(critical_arrivals) < statistics.median(bulk_arrivals + [float("inf")] * 300)


def test_one_tenants_burst_does_not_delay_another_tenants_jobs(
    endpoint, make_job, run_executor, tenant
):
    Tenant.objects.filter(id=tenant.id).update(concurrency_limit=5)
    burst = [make_job(endpoint.url(f"/slow/0.5?burst={i}")) for i in range(100)]
    small = Tenant.objects.create(name="small")
    few = [
        make_job(
            endpoint.url(f"/ok?few={i}"),
            task_tenant=small,
            due=datetime.now(UTC) + timedelta(milliseconds=100),
        )
        for i in range(5)
    ]
    run_executor(concurrency=50)
    wait_for_status(few, {"succeeded"}, timeout=5)
    running = Job.objects.filter(id__in=[j.id for j in burst], status="running").count()
    assert running <= 5
    assert Job.objects.filter(id__in=[j.id for j in burst], status="pending").count() > 50


def test_tenant_limit_caps_running_jobs(endpoint, make_job, run_executor, tenant):
    Tenant.objects.filter(id=tenant.id).update(concurrency_limit=3)
    jobs = [make_job(endpoint.url(f"/slow/0.3?n={i}")) for i in range(12)]
    run_executor(concurrency=50)
    peak = 0
    for _ in range(20):
        peak = max(peak, Job.objects.filter(status="running").count())
    wait_for_status(jobs, {"succeeded"}, timeout=20)
    assert peak <= 3


def test_priority_0_calls_of_a_burst_start_before_the_rest_of_its_second(
    endpoint, make_job, run_executor
):
    due = datetime.now(UTC) + timedelta(seconds=2)
    for i in range(300):
        make_job(endpoint.url(f"/ok?bulk={i}"), priority=5, due=due)
    critical = [make_job(endpoint.url(f"/ok?critical={i}"), priority=0, due=due) for i in range(5)]
    run_executor(concurrency=400, horizon_seconds=10)
    wait_for_status(critical, {"succeeded"}, timeout=10)
    wait_until(lambda: len(endpoint.received) == 305, timeout=20, message="burst not delivered")
    first = sorted(endpoint.received, key=lambda call: call.at)[:10]
    assert sum("critical" in call.path for call in first) == 5


def test_a_quiet_tenant_is_not_queued_behind_a_noisy_one_due_in_the_same_second(
    endpoint, make_job, run_executor, tenant
):
    due = datetime.now(UTC) + timedelta(seconds=2)
    for i in range(200):
        make_job(endpoint.url(f"/slow/0.1?noisy={i}"), due=due)
    quiet = Tenant.objects.create(name="quiet")
    few = [make_job(endpoint.url(f"/ok?quiet={i}"), task_tenant=quiet, due=due) for i in range(5)]
    run_executor(concurrency=10, horizon_seconds=10)
    wait_for_status(few, {"succeeded"}, timeout=10)
    noisy_done = len(endpoint.requests_for("/slow"))
    assert noisy_done < 60, "the quiet tenant's calls waited behind the noisy tenant's"
