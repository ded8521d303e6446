"""Callbacks after a job's end: made with the result, called as jobs of their own."""

import json

import pytest
from standardwebhooks import Webhook

from jobs.models import CALLBACK_PRIORITY, Callback, Job
from tests.executor.conftest import wait_for_status
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def callbacks_received(endpoint, path: str) -> list:
    return [call for call in endpoint.received if call.path == path]


def test_a_succeeded_job_calls_its_tasks_success_url_once_signed(
    endpoint, make_job, run_executor, tenant
):
    job = make_job(endpoint.url("/ok"), on_success_url=endpoint.url("/ok?cb=success"))
    run_executor()
    wait_until(
        lambda: callbacks_received(endpoint, "/ok?cb=success"), timeout=20, message="no callback"
    )
    call = callbacks_received(endpoint, "/ok?cb=success")[0]
    Webhook(tenant.signing_secret).verify(call.body, call.headers)
    payload = json.loads(call.body)
    assert payload["job_id"] == str(job.id) and payload["status"] == "succeeded"
    assert payload["response_body_encoding"] == "text"
    callback = Callback.objects.get(origin_job_id=job.id)
    assert call.headers["webhook-id"] == str(callback.job_id)
    wait_for_status([Job.objects.get(id=callback.job_id)], {"succeeded"})
    assert Job.objects.get(id=callback.job_id).priority == CALLBACK_PRIORITY


def test_a_callback_is_due_the_callback_delay_after_its_jobs_end(
    endpoint, make_job, run_executor, settings
):
    settings.CALLBACK_DELAY_SECONDS = 2
    job = make_job(endpoint.url("/ok"), on_success_url=endpoint.url("/ok?cb=late"))
    run_executor()
    wait_until(
        lambda: callbacks_received(endpoint, "/ok?cb=late"), timeout=20, message="no callback"
    )
    finished_at = Job.objects.get(id=job.id).finished_at
    callback = Job.objects.get(id=Callback.objects.get(origin_job_id=job.id).job_id)
    assert (callback.scheduled_at - finished_at).total_seconds() >= 1.9
    arrived = callbacks_received(endpoint, "/ok?cb=late")[0].at
    assert arrived >= finished_at.timestamp() + 1.9
