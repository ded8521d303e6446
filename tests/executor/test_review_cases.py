"""Edge cases of the executor: leases while waiting for a slot, deleted tasks, odd bodies."""

from datetime import UTC, datetime

import pytest

from jobs.models import Job
from tasks.models import Task
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_job_whose_lease_ran_out_waiting_for_a_slot_is_handed_back_not_fired(
    endpoint, make_job, run_executor, settings
):
    settings.LEASE_MARGIN_SECONDS = 1
    blocker = make_job(endpoint.url("/slow/4"), timeout_seconds=10)
    waiting = make_job(endpoint.url("/ok"), timeout_seconds=1, max_attempts=3)
    run_executor(concurrency=1, poll_interval=0.2)
    wait_for_status([blocker], {"succeeded"}, timeout=15)
    wait_until(
        lambda: Job.objects.get(id=waiting.id).max_attempts == 4,
        timeout=10,
        message="the waiting job was not handed back",
    )
    wait_for_status([waiting], {"succeeded"}, timeout=15)
    assert len(endpoint.requests_for("/ok")) == 1


def test_a_job_of_a_deleted_task_is_cancelled_not_called(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"))
    Task.objects.filter(id=job.task_id).update(status="deleted")
    run_executor()
    wait_for_status([job], {"cancelled"})
    assert Job.objects.get(id=job.id).error == "task deleted"
    assert endpoint.received == []


def test_a_body_with_a_nul_byte_is_stored_readably(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/nul"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert Job.objects.get(id=job.id).response_body == "a\ufffdb"


def test_a_critical_job_gets_a_reserved_slot_while_normal_calls_fill_the_rest(
    endpoint, make_job, run_executor
):
    slow = [make_job(endpoint.url(f"/slow/3?n={n}"), priority=5) for n in range(4)]
    run_executor(concurrency=4, critical_share=0.25)
    wait_until(
        lambda: len(endpoint.requests_for("/slow")) == 3,
        timeout=10,
        message="normal calls did not start",
    )
    critical = make_job(endpoint.url("/ok"), priority=0, due=datetime.now(UTC))
    wait_for_status([critical], {"succeeded"}, timeout=2.5)
    assert Job.objects.filter(id__in=[j.id for j in slow], status="succeeded").count() == 0
