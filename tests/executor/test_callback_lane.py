"""Callbacks in their own lane: they go whatever their task's state, through the same
dial-time destination check as a run, and never have callbacks of their own."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job, JobStatus
from jobs.storage_purge import StoragePurge
from tasks.models import Task
from tests.executor.callback_jobs import callbacks_of, make_callback, wait_for_calls
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_callback_of_a_paused_task_still_goes(endpoint, make_job, run_executor):
    run = make_job(endpoint.url("/ok"), status=JobStatus.SUCCEEDED, attempt=1)
    Task.objects.filter(id=run.task_id).update(status="paused")
    callback = make_callback(run, endpoint.url("/ok?cb=success"), event="success")
    run_executor()
    wait_for_calls(endpoint, "/ok?cb=success")
    wait_for_status([callback], {JobStatus.SUCCEEDED})


def test_a_callback_that_succeeds_makes_no_callback_of_its_own(endpoint, make_job, run_executor):
    run = make_job(endpoint.url("/ok"), on_success_url=endpoint.url("/ok?cb=success"))
    run_executor()
    wait_for_calls(endpoint, "/ok?cb=success")
    (callback,) = callbacks_of(run)
    wait_for_status([Job(id=callback.job_id)], {JobStatus.SUCCEEDED})
    assert callbacks_of(Job(id=callback.job_id)) == [] and len(callbacks_of(run)) == 1


def test_a_callback_refused_at_dial_time_dies_after_its_tries_without_a_callback(
    endpoint, make_job, run_executor, settings
):
    """Created by hand past the API's check: the executor's own check refuses the address
    it would connect to (loopback over IPv6: outside the tests' allow list 127.0.0.0/8)."""
    settings.CALLBACK_BACKOFF_SECONDS = 1
    run = make_job(
        endpoint.url("/status/500"),
        max_attempts=1,
        on_failure_url=f"http://[::1]:{endpoint.port}/cb",
    )
    run_executor()
    wait_for_status([run], {JobStatus.DEAD})
    (callback,) = callbacks_of(run)  # made in the transaction that ended the run
    wait_for_status([Job(id=callback.job_id)], {JobStatus.DEAD}, timeout=60)
    dead = Job.objects.get(id=callback.job_id)
    assert (dead.error, dead.attempt, dead.max_attempts) == ("destination not allowed", 5, 5)
    assert endpoint.requests_for("/cb") == []
    assert callbacks_of(dead) == []


def test_a_callback_of_a_task_purged_meanwhile_still_goes(endpoint, make_job, run_executor):
    """The purge waits only for a task's runs: a callback carries all it sends."""
    run = make_job(endpoint.url("/ok"), status=JobStatus.SUCCEEDED, attempt=1)
    callback = make_callback(run, endpoint.url("/ok?cb=success"), event="success")
    Job.objects.filter(id=run.id).delete()  # archived
    long_ago = datetime.now(UTC) - timedelta(days=30)
    Task.objects.filter(id=run.task_id).update(status="deleted", updated_at=long_ago)
    assert StoragePurge().run()[0] == 1 and not Task.objects.filter(id=run.task_id).exists()
    run_executor()
    wait_for_calls(endpoint, "/ok?cb=success")
    wait_for_status([callback], {JobStatus.SUCCEEDED})
