"""The reconciler removes the flows' rows no longer needed, in bounded batches: calls no
longer out, starts past their window (and those of deleted flows), waits of jobs no longer
throttled."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.reconciler_process import ReconcilerProcess
from flows.housekeeping import WAIT_GRACE_SECONDS
from flows.models import Flow, FlowCall, FlowStart, FlowWait
from jobs.models import Job
from scheduler_site.ids import new_id

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


@pytest.fixture
def flow(tenant) -> Flow:
    return Flow.objects.create(tenant=tenant, key="api", rate=5, period_seconds=1)


def reconcile(batch_size: int = 1000) -> float:
    return ReconcilerProcess(batch_size=batch_size).run_once()


def call_of(job: Job, flow: Flow, attempt: int = 1) -> FlowCall:
    return FlowCall.objects.create(job_id=job.id, flow_id=flow.id, attempt=attempt)


def test_calls_no_longer_out_are_removed_and_calls_out_kept(make_job, flow):
    out = make_job(URL, status="running", attempt=1, worker_id="w")
    handed_back = make_job(URL, status="pending", attempt=1)
    claimed_again = make_job(URL, status="running", attempt=2, worker_id="w")
    for job in (out, handed_back, claimed_again):
        call_of(job, flow)
    FlowCall.objects.create(job_id=new_id(), flow_id=flow.id, attempt=1)  # its job is gone
    reconcile()
    assert list(FlowCall.objects.values_list("job_id", flat=True)) == [out.id]


def test_starts_past_their_flows_window_are_removed(tenant, flow):
    slow = Flow.objects.create(tenant=tenant, key="slow", rate=5, period_seconds=60)
    now = datetime.now(UTC)
    old = FlowStart.objects.create(flow_id=flow.id, at=now - timedelta(seconds=5), calls=1)
    recent = FlowStart.objects.create(flow_id=flow.id, at=now, calls=1)
    in_long_window = FlowStart.objects.create(flow_id=slow.id, at=old.at, calls=1)
    reconcile()
    assert set(FlowStart.objects.values_list("id", flat=True)) == {recent.id, in_long_window.id}


def test_starts_of_a_deleted_flow_are_removed(flow):
    FlowStart.objects.create(flow_id=flow.id, at=datetime.now(UTC), calls=1)
    flow.delete()
    reconcile()
    assert not FlowStart.objects.exists()


def wait_of(job: Job, flow: Flow) -> None:
    FlowWait.objects.create(
        flow_id=flow.id, priority=job.priority, next_attempt_at=job.next_attempt_at, job_id=job.id
    )


def test_waits_of_jobs_no_longer_throttled_are_removed_after_a_while(make_job, flow):
    throttled = make_job(URL, status="throttled")
    cancelled_long_ago = make_job(URL, status="cancelled")
    cancelled_just_now = make_job(URL, status="cancelled")
    long_ago = datetime.now(UTC) - timedelta(seconds=WAIT_GRACE_SECONDS + 5)
    Job.objects.filter(id__in=[throttled.id, cancelled_long_ago.id]).update(updated_at=long_ago)
    for job in (throttled, cancelled_long_ago, cancelled_just_now):
        wait_of(job, flow)
    reconcile()
    left = set(FlowWait.objects.values_list("job_id", flat=True))
    assert left == {throttled.id, cancelled_just_now.id}


def test_a_wait_of_a_job_gone_is_removed(flow):
    FlowWait.objects.create(
        flow_id=flow.id, priority=5, next_attempt_at=datetime.now(UTC), job_id=new_id()
    )
    reconcile()
    assert not FlowWait.objects.exists()


def test_housekeeping_goes_in_bounded_batches_and_comes_back_at_once(make_job, flow):
    for _ in range(3):
        call_of(make_job(URL, status="pending", attempt=1), flow)
    assert reconcile(batch_size=2) == 0  # a full batch: the next turn follows at once
    assert FlowCall.objects.count() == 1
    assert reconcile(batch_size=2) > 0
    assert not FlowCall.objects.exists()
