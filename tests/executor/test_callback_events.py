"""Which end of a job calls which URL: a success calls on_success_url once, a death (its last
attempt failed, or the reconciler found its last lease expired) calls on_failure_url once."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job, JobStatus
from jobs.queue import reconcile_expired_leases
from tests.executor.callback_jobs import callbacks_of, calls_to, wait_for_calls
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


def both_callbacks(endpoint) -> dict:
    return {
        "on_success_url": endpoint.url("/ok?cb=success"),
        "on_failure_url": endpoint.url("/ok?cb=failure"),
    }


def test_a_run_retried_by_backoff_that_then_succeeds_gets_only_a_success_callback(
    endpoint, make_job, run_executor
):
    job = make_job(endpoint.url("/fail/1"), backoff_base_seconds=1, **both_callbacks(endpoint))
    run_executor()
    (call,) = wait_for_calls(endpoint, "/ok?cb=success")
    assert json.loads(call.body)["attempts"] == 2
    (callback,) = callbacks_of(job)
    wait_for_status([Job(id=callback.job_id)], {JobStatus.SUCCEEDED})
    assert callback.event == "success" and calls_to(endpoint, "/ok?cb=failure") == []


def test_a_dead_run_calls_its_failure_url_with_its_last_status_error_and_attempts(
    endpoint, make_job, run_executor
):
    job = make_job(endpoint.url("/status/500"), max_attempts=1, **both_callbacks(endpoint))
    run_executor()
    (call,) = wait_for_calls(endpoint, "/ok?cb=failure")
    payload = json.loads(call.body)
    assert (payload["event"], payload["job_id"], payload["status"]) == (
        "failure",
        str(job.id),
        "dead",
    )
    assert (payload["http_status"], payload["error"], payload["attempts"]) == (500, "HTTP 500", 1)
    assert calls_to(endpoint, "/ok?cb=success") == []


def test_a_death_by_lease_expiry_found_by_the_reconciler_calls_the_failure_url(
    endpoint, make_job, run_executor
):
    lapsed = datetime.now(UTC) - timedelta(minutes=1)
    job = make_job(
        endpoint.url("/ok"),
        status=JobStatus.RUNNING,
        attempt=1,
        max_attempts=1,
        worker_id="gone-executor",
        lease_expires_at=lapsed,
        **both_callbacks(endpoint),
    )
    assert reconcile_expired_leases() == 1
    run_executor()
    (call,) = wait_for_calls(endpoint, "/ok?cb=failure")
    payload = json.loads(call.body)
    assert (payload["job_id"], payload["status"], payload["error"]) == (
        str(job.id),
        "dead",
        "lease expired",
    )
    assert endpoint.requests_for("/ok?cb=success") == [] and calls_to(endpoint, "/ok") == []
