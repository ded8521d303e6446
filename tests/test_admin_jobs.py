"""The job list and a job's page in the admin: compact, searchable, read-only, with buttons
for the use cases."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from console.display import short_id
from console.paging import CappedPaginator
from jobs.models import Job, JobAttempt

NOW = datetime(2026, 11, 29, 18, 6, 3, tzinfo=UTC)


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def add_job(tenant, add_task):
    def add(name: str = "nightly", **fields) -> Job:
        values = {"scheduled_at": NOW, "next_attempt_at": NOW + timedelta(minutes=1)}
        values.update(fields)
        return Job.objects.create(tenant=tenant, task=add_task(name=name), **values)

    return add


def listed_ids(page) -> list[str]:
    return [short_id(row.id) for row in page.context["cl"].result_list]


def test_the_job_list_shows_utc_times_with_seconds_and_the_task_by_name(operator_client, add_job):
    job = add_job("nightly-invoices")
    page = operator_client.get("/admin/jobs/job/").content.decode()
    assert "2026-11-29 18:06:03 UTC" in page and "2026-11-29 18:07:03 UTC" in page
    assert f'href="/admin/tasks/task/{job.task_id}/change/"' in page and "nightly-invoices" in page


def test_the_job_list_shows_a_short_id_and_the_whole_id_on_hover(operator_client, add_job):
    job = add_job()
    page = operator_client.get("/admin/jobs/job/").content.decode()
    assert f'<code title="{job.id}">{short_id(job.id)}</code>' in page


@pytest.mark.parametrize("term", ["short", "whole", "prefix"])
def test_a_job_is_found_by_its_id(operator_client, add_job, term):
    job, other = add_job(), add_job()
    text = {"short": short_id(job.id), "whole": str(job.id), "prefix": str(job.id)[:13]}[term]
    page = operator_client.get("/admin/jobs/job/", {"q": text})
    assert short_id(job.id) in listed_ids(page)
    assert term == "prefix" or short_id(other.id) not in listed_ids(page)


def test_a_job_is_found_by_its_error_text(operator_client, add_job):
    failing = add_job(error="HTTP 503 from the endpoint", http_status=503)
    add_job(error="timed out after 30 s")
    page = operator_client.get("/admin/jobs/job/", {"q": "503 from"})
    assert listed_ids(page) == [short_id(failing.id)]


def test_a_job_is_found_by_its_task_name(operator_client, add_job):
    wanted = add_job("crm-sync")
    add_job("nightly-invoices")
    page = operator_client.get("/admin/jobs/job/", {"q": "crm"})
    assert listed_ids(page) == [short_id(wanted.id)]


def test_the_due_filter_lists_pending_jobs_already_due(operator_client, add_job):
    due = add_job(next_attempt_at=datetime.now(UTC) - timedelta(seconds=5))
    add_job(next_attempt_at=datetime.now(UTC) + timedelta(minutes=5))
    page = operator_client.get("/admin/jobs/job/", {"status__exact": "pending", "due": "now"})
    assert listed_ids(page) == [short_id(due.id)]


def test_cancelling_in_the_job_list_cancels_through_the_use_case(operator_client, add_job):
    job = add_job()
    operator_client.post(
        "/admin/jobs/job/", {"action": "cancel_jobs", "_selected_action": [str(job.id)]}
    )
    stored = Job.objects.get(id=job.id)
    assert stored.status == "cancelled" and stored.error == "cancelled"


def test_a_jobs_page_is_read_only_with_no_save_button(operator_client, add_job):
    job = add_job()
    page = operator_client.get(f"/admin/jobs/job/{job.id}/change/").content.decode()
    assert str(job.id) in page
    assert 'name="_save"' not in page and 'name="_continue"' not in page


def test_a_jobs_page_lists_every_attempt(operator_client, add_job):
    job = add_job(status="succeeded", attempt=3)
    calls = [
        (1, 503, "HTTP 503", "retry"),
        (2, None, "timed out", "retry"),
        (3, 200, None, "succeeded"),
    ]
    for attempt, http_status, error, outcome in calls:
        JobAttempt.objects.create(
            job_id=job.id,
            attempt=attempt,
            started_at=NOW + timedelta(seconds=10 * attempt),
            duration_ms=400 + attempt,
            http_status=http_status,
            error=error,
            response_head="upstream unavailable" if attempt == 1 else None,
            outcome=outcome,
        )
    page = operator_client.get(f"/admin/jobs/job/{job.id}/change/").content.decode()
    assert page.count('<tr class="attempt">') == 3
    assert "401 ms" in page and "upstream unavailable" in page and "timed out" in page
    assert "2026-11-29 18:06:33.000 UTC" in page


def test_the_retry_button_of_a_dead_jobs_page_retries_it(operator_client, add_job):
    job = add_job(status="dead", attempt=5, max_attempts=5, finished_at=NOW)
    page = operator_client.get(f"/admin/jobs/job/{job.id}/change/").content.decode()
    assert f"/admin/jobs/job/{job.id}/retry/" in page
    response = operator_client.post(f"/admin/jobs/job/{job.id}/retry/")
    assert response.status_code == 302
    assert Job.objects.get(id=job.id).status == "pending"


def test_the_retry_button_refuses_a_get(operator_client, add_job):
    job = add_job(status="dead", attempt=5, max_attempts=5, finished_at=NOW)
    assert operator_client.get(f"/admin/jobs/job/{job.id}/retry/").status_code == 403
    assert Job.objects.get(id=job.id).status == "dead"


def test_the_list_count_stops_past_its_cap(add_job):
    class SmallCap(CappedPaginator):
        cap = 2

    for _ in range(4):
        add_job()
    assert SmallCap(Job.objects.order_by("-id"), 50).count == 3


def test_a_throttled_job_shows_its_next_attempt(operator_client, add_job):
    add_job(status="throttled")  # waiting for its flow's room: its attempt is still to come
    page = operator_client.get("/admin/jobs/job/?status__exact=throttled").content.decode()
    assert "2026-11-29 18:07:03 UTC" in page
