"""A flow's circuit opening tells the tenant once, at its on_failure_url: a real executor
calls a real failing destination, a second endpoint receives the alert."""

import json

import pytest
from standardwebhooks import Webhook

from flows.models import Flow
from jobs.models import Callback, Job, JobStatus
from tests.endpoints import Endpoint
from tests.executor.flow_helpers import flow_of
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection
FAILURES = 3
CALLS = 6  # three more fail after the one that opens it
ALERTS = "/ok?alerts"


@pytest.fixture
def receiver():
    server = Endpoint()
    yield server
    server.close()


def failing_jobs(make_job, endpoint) -> list[Job]:
    # Retried only after a minute: no job dies (a death would alert too) during the test.
    return [
        make_job(endpoint.url("/status/500"), flow_key="api", backoff_base_seconds=600)
        for _ in range(CALLS)
    ]


def all_called(jobs: list[Job]) -> bool:
    ids = [job.id for job in jobs]
    return (
        not Job.objects.filter(id__in=ids, attempt=0).exists()
        and not Job.objects.filter(id__in=ids, status=JobStatus.RUNNING).exists()
    )


def circuit_alerts() -> list[Callback]:
    return [c for c in Callback.objects.all() if json.loads(c.body)["type"] == "circuit.opened"]


def test_an_opening_circuit_alerts_the_tenant_once_signed(
    tenant, make_job, endpoint, receiver, run_executor
):
    tenant.on_failure_url = receiver.url(ALERTS)
    tenant.save(update_fields=["on_failure_url"])
    flow = flow_of(tenant, breaker_failures=FAILURES, breaker_cooldown_seconds=600)
    jobs = failing_jobs(make_job, endpoint)
    run_executor()
    wait_until(lambda: all_called(jobs), timeout=20, message="not every job was called")
    wait_until(lambda: receiver.received, timeout=20, message="no alert arrived")
    assert len(circuit_alerts()) == 1  # made with the results: no more will come
    assert len(receiver.received) == 1
    call = receiver.received[0]
    Webhook(tenant.signing_secret).verify(call.body, call.headers)
    body = json.loads(call.body)
    flow = Flow.objects.get(id=flow.id)
    assert body["type"] == "circuit.opened" and body["event"] == "alert"
    assert body["flow_key"] == "api"
    assert body["failures"] >= FAILURES and body["breaker_failures"] == FAILURES
    assert body["opened_at"] == flow.opened_at.isoformat().replace("+00:00", "Z")
    assert body["retry_at"] == flow.retry_at.isoformat().replace("+00:00", "Z")
    assert body["job_id"] in {str(job.id) for job in jobs}


def test_a_tenant_without_a_failure_url_gets_no_circuit_alert(
    tenant, make_job, endpoint, run_executor
):
    flow = flow_of(tenant, breaker_failures=FAILURES, breaker_cooldown_seconds=600)
    jobs = failing_jobs(make_job, endpoint)
    run_executor()
    wait_until(lambda: all_called(jobs), timeout=20, message="not every job was called")
    assert Flow.objects.get(id=flow.id).circuit_state == "open"
    assert not Callback.objects.exists()


def test_a_reopening_after_a_failed_probe_makes_no_second_alert(
    tenant, make_job, endpoint, receiver, run_executor
):
    tenant.on_failure_url = receiver.url(ALERTS)
    tenant.save(update_fields=["on_failure_url"])
    # Three out at a time: the three left wait, and one of them is the probe after 1 s.
    flow = flow_of(tenant, parallelism=3, breaker_failures=FAILURES, breaker_cooldown_seconds=1)
    failing_jobs(make_job, endpoint)
    run_executor()
    wait_until(
        lambda: Flow.objects.get(id=flow.id).reopens >= 1,
        timeout=20,
        message="the probe did not re-open the circuit",
    )
    wait_until(lambda: receiver.received, timeout=20, message="no alert arrived")
    assert len(circuit_alerts()) == 1
