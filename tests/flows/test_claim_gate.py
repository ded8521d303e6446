"""The claim's gate: a flow's jobs beyond its room are parked uncharged, in their place,
and go back when the flow has room again."""

from datetime import UTC, datetime, timedelta

import pytest

from flows.models import Flow, FlowWait
from flows.services import flow_resume
from jobs.holds import jobs_hold_for_task
from jobs.models import Job
from jobs.queue import claim_jobs, record_results
from tests.executor.round_helpers import WORKER, succeeded

pytestmark = pytest.mark.django_db(transaction=True)


def claim(count: int = 100):
    return claim_jobs(
        worker_id=WORKER, critical_limit=count, normal_limit=count, lookahead_seconds=5
    )


@pytest.fixture
def flow_of(tenant):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])

    def make(key: str = "api", **limits) -> Flow:
        return Flow.objects.create(tenant=tenant, key=key, **limits)

    return make


def test_a_flow_lets_out_only_its_parallelism_and_parks_the_rest(make_job, flow_of):
    flow = flow_of(parallelism=2)
    jobs = [make_job("http://127.0.0.1:9/", flow_key="api") for _ in range(5)]
    batch = claim()
    assert len(batch.jobs) == 2
    assert {job.flow_id for job in batch.jobs} == {flow.id}
    statuses = sorted(
        Job.objects.filter(id__in=[j.id for j in jobs]).values_list("status", flat=True)
    )
    assert statuses == ["running", "running", "throttled", "throttled", "throttled"]
    parked = Job.objects.filter(status="throttled")
    assert all(job.attempt == 0 for job in parked)  # no attempt charged
    assert FlowWait.objects.filter(flow_id=flow.id).count() == 3


def test_parked_jobs_go_back_in_their_place_when_calls_end(make_job, flow_of):
    flow_of(parallelism=2)
    now = datetime.now(UTC)
    jobs = [
        make_job("http://127.0.0.1:9/", flow_key="api", due=now - timedelta(seconds=10 - i))
        for i in range(5)
    ]
    first = claim().jobs
    assert {job.id for job in first} == {str(jobs[0].id), str(jobs[1].id)}
    assert claim().jobs == []  # still full: nothing goes
    record_results(worker_id=WORKER, results=[succeeded(job) for job in first])
    second = claim().jobs
    assert {job.id for job in second} == {str(jobs[2].id), str(jobs[3].id)}


def test_jobs_without_a_flow_pass_a_full_flow_by(make_job, flow_of):
    flow_of(parallelism=1)
    for _ in range(20):
        make_job("http://127.0.0.1:9/", flow_key="api")
    free = make_job("http://127.0.0.1:9/")
    claim(5)
    claimed = claim(5).jobs + claim(5).jobs + claim(5).jobs + claim(5).jobs
    assert str(free.id) in {job.id for job in claimed} | {
        str(j.id) for j in Job.objects.filter(status="running")
    }


def test_a_paused_flow_lets_nothing_out(make_job, flow_of):
    flow_of(paused=True)
    make_job("http://127.0.0.1:9/", flow_key="api")
    assert claim().jobs == []
    assert Job.objects.get().status == "throttled"


def test_a_flow_key_first_used_makes_a_flow_with_no_limits(tenant, make_job):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    for _ in range(3):
        make_job("http://127.0.0.1:9/", flow_key="new-one")
    assert len(claim().jobs) == 3
    flow = Flow.objects.get(tenant=tenant, key="new-one")
    assert flow.parallelism is None and flow.rate is None and flow.breaker_failures == 10


def test_pausing_a_task_holds_the_jobs_its_flow_held_back(make_job, flow_of):
    flow_of(paused=True)
    job = make_job("http://127.0.0.1:9/", flow_key="api")
    claim()
    assert jobs_hold_for_task(task_id=job.task_id) == 1
    assert Job.objects.get(id=job.id).status == "held"


def test_a_held_job_whose_wait_was_left_behind_is_not_let_go(make_job, flow_of):
    flow = flow_of(paused=True)
    job = make_job("http://127.0.0.1:9/", flow_key="api")
    claim()
    jobs_hold_for_task(task_id=job.task_id)
    flow_resume(tenant=flow.tenant, actor="test", key=flow.key)
    assert claim().jobs == []
    assert Job.objects.get(id=job.id).status == "held"
    assert not FlowWait.objects.exists()  # the left-behind wait is dropped
