"""The tenant-wide failure alert, end to end: jobs die in an executor, alerts arrive."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from standardwebhooks import Webhook

from jobs.models import Callback, CallbackEvent, Job
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)
ALERT_PATH = "/ok?alert"


def alerts(endpoint) -> list:
    return [call for call in endpoint.received if call.path == ALERT_PATH]


@pytest.fixture
def alerting_tenant(tenant, endpoint):
    tenant.on_failure_url = endpoint.url(ALERT_PATH)
    tenant.save(update_fields=["on_failure_url"])
    return tenant


def test_a_dead_job_of_a_task_without_its_own_url_alerts_the_tenant_signed(
    endpoint, make_job, run_executor, alerting_tenant
):
    job = make_job(endpoint.url("/status/500"), max_attempts=1)
    run_executor()
    wait_until(lambda: alerts(endpoint), timeout=20, message="no alert")
    call = alerts(endpoint)[0]
    Webhook(alerting_tenant.signing_secret).verify(call.body, call.headers)
    body = json.loads(call.body)
    assert body["event"] == "alert" and body["deaths"] == 1
    assert body["job_id"] == str(job.id) and body["status"] == "dead"


def test_a_task_with_its_own_failure_url_does_not_alert_the_tenant(
    endpoint, make_job, run_executor, alerting_tenant
):
    make_job(endpoint.url("/status/500"), max_attempts=1, on_failure_url=endpoint.url("/ok?own"))
    run_executor()
    wait_until(lambda: endpoint.requests_for("/ok?own"), timeout=20, message="no callback")
    # An alert would have been made with the callback, in the transaction of the death.
    assert not Callback.objects.filter(event=CallbackEvent.ALERT).exists()
    assert alerts(endpoint) == []


def test_two_tasks_dying_alert_separately(endpoint, make_job, run_executor, alerting_tenant):
    jobs = [make_job(endpoint.url("/status/500"), max_attempts=1) for _ in range(2)]
    run_executor()
    wait_until(lambda: len(alerts(endpoint)) == 2, timeout=20, message="not two alerts")
    tasks = {json.loads(call.body)["task_id"] for call in alerts(endpoint)}
    assert tasks == {str(job.task_id) for job in jobs}


def test_a_storm_of_one_task_alerts_at_once_and_at_the_windows_end_counting_the_rest(
    endpoint, make_job, run_executor, alerting_tenant, settings
):
    settings.ALERT_WINDOW_SECONDS = 5
    first = make_job(endpoint.url("/status/500"), max_attempts=1)
    soon = datetime.now(UTC) + timedelta(seconds=2)
    storm = [
        Job.objects.create(
            tenant=alerting_tenant, task_id=first.task_id, max_attempts=1,
            scheduled_at=soon + timedelta(milliseconds=index), next_attempt_at=soon,
        )
        for index in range(29)
    ]  # fmt: skip
    # Claims reach 1 s ahead: the waiting alert is still open to the storm's deaths.
    run_executor(horizon_seconds=1)
    wait_for_status([first, *storm], {"dead"}, timeout=30)
    # Every alert is made in the transaction of a death: with all recorded, these are all.
    made = Job.objects.filter(id__in=Callback.objects.values("job_id"))
    assert made.count() == 2
    wait_for_status(list(made), {"succeeded"}, timeout=30)
    sent = alerts(endpoint)
    assert len(sent) == 2
    bodies = [json.loads(call.body) for call in sent]
    assert sum(body["deaths"] for body in bodies) == 30 and bodies[0]["deaths"] < 30
    assert sent[1].at - sent[0].at >= settings.ALERT_WINDOW_SECONDS - 0.2
