"""Callback jobs in the console: listed and shown as callbacks of their job (they have no
task row), never operated on, and kept out of the dead letter queue."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from console.display import short_id
from jobs.models import Job, JobStatus
from tests.executor.callback_jobs import make_callback

CALLBACK_URL = "https://93.184.216.34/failed"


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def run(make_job):
    return make_job("https://93.184.216.34/ok", status=JobStatus.DEAD, attempt=1)


def dead_callback(run: Job) -> Job:
    return make_callback(
        run, CALLBACK_URL, status=JobStatus.DEAD, attempt=5, finished_at=datetime.now(UTC)
    )


def listed(page) -> list:
    return [row.id for row in page.context["cl"].result_list]


def test_the_job_list_shows_a_callback_as_the_callback_of_its_job(operator_client, run):
    callback = dead_callback(run)
    page = operator_client.get("/admin/jobs/job/")
    assert page.status_code == 200
    assert set(listed(page)) == {run.id, callback.id}
    text = page.content.decode()
    assert f'failure callback of <a href="/admin/jobs/job/{run.id}/change/"' in text


def test_a_callback_jobs_page_names_its_job_event_and_url(operator_client, run):
    callback = dead_callback(run)
    page = operator_client.get(f"/admin/jobs/job/{callback.id}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "A failure callback of job" in text and str(run.id) in text and CALLBACK_URL in text


def test_a_dead_callback_has_no_retry_button(operator_client, run):
    callback = dead_callback(run)
    text = operator_client.get(f"/admin/jobs/job/{callback.id}/change/").content.decode()
    assert 'id="retry-job"' not in text


def test_a_dead_callback_is_not_in_the_dead_letter_queue(operator_client, run):
    dead_callback(run)
    page = operator_client.get("/admin/jobs/deadletter/")
    assert listed(page) == [run.id]


def test_retrying_a_callback_from_the_job_list_is_refused_without_a_crash(operator_client, run):
    callback = dead_callback(run)
    page = operator_client.post(
        "/admin/jobs/job/",
        {"action": "retry_jobs", "_selected_action": [str(callback.id)]},
        follow=True,
    )
    assert page.status_code == 200
    messages = [str(message) for message in page.context["messages"]]
    assert f"{short_id(callback.id)}: job not found" in " ".join(messages), messages
    assert Job.objects.get(id=callback.id).status == JobStatus.DEAD


def test_the_retry_button_url_of_a_callback_is_refused(operator_client, run):
    callback = dead_callback(run)
    operator_client.post(f"/admin/jobs/job/{callback.id}/retry/")
    assert Job.objects.get(id=callback.id).status == JobStatus.DEAD


def test_a_callback_is_found_by_its_error_text(operator_client, run):
    callback = dead_callback(run)
    Job.objects.filter(id=callback.id).update(error="destination not allowed")
    page = operator_client.get("/admin/jobs/job/", {"q": "destination not"})
    assert listed(page) == [callback.id]
