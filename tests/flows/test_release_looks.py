"""When the release looks at a flow: only once something may have given it room (a call's
end, a window's end, a resume), and the reconciler's housekeeping plans a look that
nothing else planned (a hand-back gives room without a result)."""

from datetime import UTC, datetime

import pytest

from flows.housekeeping import flow_housekeeping
from flows.models import Flow, FlowWait
from flows.services import flow_resume
from jobs.models import Job
from jobs.queue import hand_back, record_results
from tasks.models import Task
from tests.executor.round_helpers import WORKER, succeeded
from tests.flows.claims import claim
from tests.flows.flow_processes import flow_of

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


def look_of(flow: Flow):
    return Flow.objects.get(id=flow.id).release_at


def test_a_flow_full_of_calls_plans_no_look_until_one_ends(tenant, make_job):
    flow = flow_of(tenant, parallelism=1)
    make_job(URL, flow_key="api")
    make_job(URL, flow_key="api")
    (first,) = claim().jobs
    assert look_of(flow) is None  # only a call's end can give it room
    record_results(worker_id=WORKER, results=[succeeded(first)])
    assert look_of(flow) is not None
    assert len(claim().jobs) == 1  # the look let the parked job go


def test_a_look_that_finds_nothing_parked_plans_none(tenant, make_job):
    flow = flow_of(tenant, parallelism=5)
    make_job(URL, flow_key="api")
    (only,) = claim().jobs
    record_results(worker_id=WORKER, results=[succeeded(only)])
    claim()
    assert look_of(flow) is None


def test_a_full_rate_window_plans_its_look_at_the_windows_end(tenant, make_job):
    flow = flow_of(tenant, rate=1, period_seconds=60)
    make_job(URL, flow_key="api")
    make_job(URL, flow_key="api")
    before = datetime.now(UTC)
    assert len(claim().jobs) == 1
    look = look_of(flow)
    assert look is not None and 59 <= (look - before).total_seconds() <= 62


def test_housekeeping_plans_a_look_for_room_a_hand_back_gave(tenant, make_job):
    flow_of(tenant, parallelism=1)
    first = make_job(URL, flow_key="api")
    parked = make_job(URL, flow_key="api")
    (claimed,) = claim().jobs
    assert claimed.id == str(first.id)
    Task.objects.filter(id=first.task_id).update(status="paused")
    hand_back(worker_id=WORKER, jobs=[(claimed.key, claimed.attempt, "held")])
    assert claim().jobs == []  # the room is back, but nothing planned a look
    flow_housekeeping(batch_size=100, now=datetime.now(UTC))
    assert [job.id for job in claim().jobs] == [str(parked.id)]


def test_jobs_parked_in_a_flow_that_is_gone_go_back_to_pending(tenant, make_job):
    flow = flow_of(tenant, paused=True)
    job = make_job(URL, flow_key="api")
    claim()
    Flow.objects.filter(id=flow.id).delete()  # as its tenant's deletion would
    flow_housekeeping(batch_size=100, now=datetime.now(UTC))
    assert Job.objects.get(id=job.id).status == "pending"
    assert not FlowWait.objects.exists()


def test_housekeeping_plans_no_look_for_a_paused_flow(tenant, make_job):
    flow = flow_of(tenant, paused=True)
    make_job(URL, flow_key="api")
    claim()
    flow_housekeeping(batch_size=100, now=datetime.now(UTC))
    assert look_of(flow) is None  # no room can come without a resume: nothing to look at


def test_a_call_end_plans_no_look_for_a_flow_with_nothing_parked(tenant, make_job):
    flow = flow_of(tenant)
    make_job(URL, flow_key="api")
    (job,) = claim().jobs
    record_results(worker_id=WORKER, results=[succeeded(job)])
    assert look_of(flow) is None


def test_a_release_stopped_by_the_claims_limit_looks_again_at_once(tenant, make_job):
    flow = flow_of(tenant, paused=True)
    for _ in range(6):
        make_job(URL, flow_key="api")
    claim(count=3)
    claim(count=3)
    flow_resume(tenant=tenant, actor="test", key="api")
    first = claim(count=3)
    assert len(first.jobs) == 3 and first.held_back  # the round goes again at once
    assert len(claim(count=3).jobs) == 3
    claim(count=3)  # (it cannot tell it let the last ones go: one more look finds none)
    assert look_of(flow) is None
