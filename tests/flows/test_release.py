"""Parked jobs go back when their flow has room: best priority first, rows of jobs that left
meanwhile (a deleted task's, cancelled) take no room, and a probe goes only when due."""

from datetime import UTC, datetime, timedelta

import pytest

from flows.models import CircuitState, FlowWait
from jobs.models import Job
from jobs.queue import record_results
from tasks.services import task_delete
from tests.executor.round_helpers import WORKER, succeeded
from tests.flows.flow_processes import flow_of
from tests.flows.test_claim_gate import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


def test_a_better_priority_parked_later_goes_first(tenant, make_job):
    flow_of(tenant, parallelism=1)
    now = datetime.now(UTC)
    first, *fives = [
        make_job(URL, flow_key="api", due=now - timedelta(seconds=9 - i), priority=5)
        for i in range(4)
    ]
    running = claim().jobs
    assert [job.id for job in running] == [str(first.id)]
    urgent = make_job(URL, flow_key="api", priority=1)
    assert claim().jobs == []  # parked after the fives
    assert Job.objects.get(id=urgent.id).status == "throttled"
    record_results(worker_id=WORKER, results=[succeeded(job) for job in running])
    assert [job.id for job in claim().jobs] == [str(urgent.id)]


def test_a_deleted_tasks_throttled_jobs_are_cancelled_and_the_flow_goes_on(tenant, make_job):
    flow_of(tenant, parallelism=1)
    now = datetime.now(UTC)
    gone = [make_job(URL, flow_key="api", due=now - timedelta(seconds=9 - i)) for i in range(5)]
    kept = make_job(URL, flow_key="api", due=now)
    running = claim().jobs
    assert len(running) == 1
    for job in gone:
        task_delete(tenant=tenant, actor="test", task_id=job.task_id, expected_version=None)
    assert Job.objects.filter(id__in=[j.id for j in gone[1:]], status="cancelled").count() == 4
    record_results(worker_id=WORKER, results=[succeeded(job) for job in running])
    assert [job.id for job in claim().jobs] == [str(kept.id)]
    assert not FlowWait.objects.exists()


def test_a_probe_is_let_out_only_when_its_job_is_due(tenant, make_job):
    past = datetime.now(UTC) - timedelta(seconds=5)
    flow_of(
        tenant,
        circuit_state=CircuitState.OPEN,
        failures=10,
        opened_at=past,
        retry_at=past + timedelta(seconds=1),
    )
    soon = make_job(URL, flow_key="api", due=datetime.now(UTC) + timedelta(seconds=3))
    assert claim().jobs == []
    assert Job.objects.get(id=soon.id).status == "throttled"
    due = make_job(URL, flow_key="api")
    assert [job.id for job in claim().jobs] == [str(due.id)]
