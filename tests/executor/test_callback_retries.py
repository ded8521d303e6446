"""A callback is retried like a job, with one webhook-id on every try; one retried by hand
(its run, dead again) is a new callback with a new webhook-id."""

import json

import pytest
from standardwebhooks import Webhook

from jobs.models import Job, JobStatus
from tasks.models import Task
from tests.conftest import client_for
from tests.executor.callback_jobs import callbacks_of, wait_for_calls
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_callback_retries(settings):
    settings.CALLBACK_BACKOFF_SECONDS = 1


def test_a_callback_failing_twice_then_succeeding_arrives_three_times_with_one_webhook_id(
    endpoint, make_job, run_executor, tenant
):
    job = make_job(endpoint.url("/ok"), on_success_url=endpoint.url("/fail/2?cb=success"))
    run_executor()
    calls = wait_for_calls(endpoint, "/fail/2?cb=success", 3)
    assert len({call.headers["webhook-id"] for call in calls}) == 1
    for call in calls:
        Webhook(tenant.signing_secret).verify(call.body, call.headers)
    (callback,) = callbacks_of(job)
    assert calls[0].headers["webhook-id"] == str(callback.job_id)
    wait_for_status([Job(id=callback.job_id)], {JobStatus.SUCCEEDED})
    assert Job.objects.get(id=callback.job_id).attempt == 3


def test_a_dead_job_retried_by_hand_that_dies_again_calls_back_with_a_new_webhook_id(
    endpoint, make_job, run_executor, tenant
):
    job = make_job(
        endpoint.url("/status/500"), max_attempts=1, on_failure_url=endpoint.url("/ok?cb=failure")
    )
    Task.objects.filter(id=job.task_id).update(max_attempts=1)  # the retry's fresh budget
    run_executor()
    wait_for_calls(endpoint, "/ok?cb=failure", 1)
    response = client_for(tenant).post(f"/v1/jobs/{job.id}/retry")
    assert response.status_code == 202, response.content
    calls = wait_for_calls(endpoint, "/ok?cb=failure", 2)
    first, second = (json.loads(call.body) for call in calls)
    assert calls[0].headers["webhook-id"] != calls[1].headers["webhook-id"]
    assert (first["job_id"], second["job_id"]) == (str(job.id), str(job.id))
    assert (first["attempts"], second["attempts"]) == (1, 2)
    assert len(callbacks_of(job)) == 2
