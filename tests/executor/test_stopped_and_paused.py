"""The executor and a tenant stopped or a task paused after the claim: no call is made."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tasks.models import Task
from tasks.tenants import tenant_deactivate
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection


def test_a_tenant_stopped_after_the_claim_gets_no_call(endpoint, make_job, run_executor, tenant):
    job = make_job(endpoint.url("/ok"), due=datetime.now(UTC) + timedelta(seconds=2))
    run_executor(poll_interval=1.0)  # claims two intervals ahead: the job waits parked
    wait_until(
        lambda: Job.objects.get(id=job.id).status == "running",
        timeout=10,
        message="the job was not claimed ahead",
    )
    tenant_deactivate(actor="tests", tenant=tenant)
    wait_for_status([job], {"pending"}, timeout=10)
    assert endpoint.received == []
    stored = Job.objects.get(id=job.id)
    assert stored.max_attempts == job.max_attempts + 1  # the claim charged nothing


def test_a_retry_written_after_the_pause_is_held_by_the_executor_uncalled(
    endpoint, make_job, run_executor
):
    job = make_job(endpoint.url("/ok"))
    Task.objects.filter(id=job.task_id).update(status="paused")  # paused, retry pending
    run_executor()
    wait_for_status([job], {"held"})
    assert endpoint.received == []
    stored = Job.objects.get(id=job.id)
    assert stored.max_attempts == job.max_attempts + 1


def test_a_run_now_job_of_a_paused_task_is_called(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"), run_now=True)
    Task.objects.filter(id=job.task_id).update(status="paused")
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert len(endpoint.received) == 1


def test_a_full_executor_still_learns_of_a_tenant_stopped_after_the_claim(
    endpoint, make_job, run_executor, tenant
):
    due = datetime.now(UTC) + timedelta(seconds=3)
    jobs = [make_job(endpoint.url("/ok"), due=due, priority=p) for p in (0, 5)]
    run_executor(max_held=2, horizon_seconds=5)  # holding both, it claims no more
    wait_for_status(jobs, {"running"}, timeout=10)
    tenant_deactivate(actor="tests", tenant=tenant)
    wait_for_status(jobs, {"pending"}, timeout=10)
    assert endpoint.received == []
