"""A job of a flow, claimed by a real executor ahead of its second, whose flow is paused
before that second: it is never called, and goes back to wait with its flow, uncharged."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job, JobAttempt, JobStatus
from tests.executor.conftest import wait_for_status
from tests.executor.flow_helpers import charged_attempts, flow_of, pause
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection
LEAD = timedelta(seconds=3)  # within the executor's horizon (5 s): claimed at once


def test_a_job_whose_flow_is_paused_after_its_claim_is_not_called(
    tenant, make_job, endpoint, run_executor
):
    flow = flow_of(tenant)
    job = make_job(endpoint.url("/ok"), flow_key=flow.key, due=datetime.now(UTC) + LEAD)
    run_executor()
    wait_for_status([job], {JobStatus.RUNNING}, timeout=LEAD.total_seconds() - 1)
    pause(flow)
    wait_for_status([job], {JobStatus.THROTTLED}, timeout=10)
    wait_until(
        lambda: datetime.now(UTC) > job.next_attempt_at + timedelta(seconds=1.5),
        timeout=10,
        message="its second did not pass",
    )
    assert endpoint.received == []
    assert Job.objects.get(id=job.id).status == JobStatus.THROTTLED
    assert charged_attempts(job) == 0
    assert not JobAttempt.objects.filter(job_id=job.id).exists()


def test_a_job_whose_flows_circuit_opened_after_its_claim_is_not_called(
    tenant, make_job, endpoint, run_executor
):
    flow = flow_of(tenant)
    job = make_job(endpoint.url("/ok"), flow_key=flow.key, due=datetime.now(UTC) + LEAD)
    run_executor()
    wait_for_status([job], {JobStatus.RUNNING}, timeout=LEAD.total_seconds() - 1)
    now = datetime.now(UTC)
    type(flow).objects.filter(id=flow.id).update(
        circuit_state="open", opened_at=now, retry_at=now + timedelta(minutes=5), stopped_at=now
    )
    wait_for_status([job], {JobStatus.THROTTLED}, timeout=10)
    wait_until(
        lambda: datetime.now(UTC) > job.next_attempt_at + timedelta(seconds=1.5),
        timeout=10,
        message="its second did not pass",
    )
    assert endpoint.received == []
    assert charged_attempts(job) == 0
