"""Operators inspect the dead letter queue in the admin and retry from there."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from jobs.models import Job
from jobs.retry_all import retry_all_step
from tasks.models import Tenant


@pytest.fixture
def operator_client(client, db):
    user = User.objects.create_superuser("ops", "ops@example.com", "pw")
    client.force_login(user)
    return client


@pytest.fixture
def dead_job(tenant, add_task):
    now = datetime.now(UTC)
    return Job.objects.create(
        tenant=tenant,
        task=add_task(),
        scheduled_at=now,
        next_attempt_at=now,
        status="dead",
        attempt=5,
        max_attempts=5,
        error="HTTP 500",
        finished_at=now,
    )


def test_dlq_page_lists_dead_jobs_only(operator_client, dead_job, tenant, add_task):
    now = datetime.now(UTC)
    alive = Job.objects.create(
        tenant=tenant, task=add_task(), scheduled_at=now, next_attempt_at=now
    )
    page = operator_client.get("/admin/jobs/deadletter/")
    assert page.status_code == 200
    assert str(dead_job.id) in page.content.decode()
    assert str(alive.id) not in page.content.decode()


def test_retry_action_puts_dead_jobs_back_in_the_queue(operator_client, dead_job):
    response = operator_client.post(
        "/admin/jobs/deadletter/",
        {"action": "retry_jobs", "_selected_action": [str(dead_job.id)]},
        follow=True,
    )
    assert response.status_code == 200
    stored = Job.objects.get(id=dead_job.id)
    assert stored.status == "pending" and stored.attempt == 5 and stored.max_attempts > 5


def test_admin_needs_a_staff_login(client, dead_job):
    assert client.get("/admin/jobs/deadletter/").status_code == 302


@pytest.fixture
def dead_jobs(tenant, add_task):
    """Three dead jobs: two of one task, one of another."""
    now = datetime.now(UTC)
    sync, invoices = add_task(name="crm-sync"), add_task(name="invoices")
    return [
        Job.objects.create(
            tenant=tenant,
            task=task,
            scheduled_at=now - timedelta(minutes=n),
            next_attempt_at=now,
            status="dead",
            attempt=5,
            max_attempts=5,
            error="HTTP 503",
            finished_at=now,
        )
        for n, task in enumerate([sync, sync, invoices])
    ]


def test_retry_all_matching_asks_first_naming_the_count(operator_client, dead_jobs):
    page = operator_client.get("/admin/jobs/deadletter/retry-matching/", {"q": "crm-sync"})
    assert "2 dead jobs match" in page.content.decode()
    assert set(Job.objects.values_list("status", flat=True)) == {"dead"}


def test_retry_all_matching_retries_exactly_the_filtered_jobs(operator_client, dead_jobs):
    operator_client.post("/admin/jobs/deadletter/retry-matching/?q=crm-sync")
    while retry_all_step():  # the reconciler's part
        pass
    statuses = {job.task.name: set() for job in dead_jobs}
    for job in Job.objects.select_related("task"):
        statuses[job.task.name].add(job.status)
    assert statuses == {"crm-sync": {"pending"}, "invoices": {"dead"}}


def test_discarding_leaves_the_dlq_as_cancelled_keeping_the_error(operator_client, dead_job):
    operator_client.post(
        "/admin/jobs/deadletter/",
        {"action": "discard_jobs", "_selected_action": [str(dead_job.id)]},
    )
    stored = Job.objects.get(id=dead_job.id)
    assert stored.status == "cancelled"
    assert stored.error == "discarded; last error: HTTP 500"
    page = operator_client.get("/admin/jobs/deadletter/").content.decode()
    assert str(dead_job.id) not in page


def test_the_dlq_lists_the_latest_deaths_first(operator_client, tenant, add_task):
    now = datetime.now(UTC)
    task = add_task()
    older, newer = (
        Job.objects.create(
            tenant=tenant,
            task=task,
            scheduled_at=now - timedelta(minutes=n),
            next_attempt_at=now,
            status="dead",
            finished_at=now - timedelta(minutes=died),
        )
        for n, died in ((1, 30), (2, 5))
    )
    rows = operator_client.get("/admin/jobs/deadletter/").context["cl"].result_list
    assert [job.id for job in rows] == [newer.id, older.id]


def test_retrying_a_stopped_tenants_dead_job_is_refused(operator_client, dead_job, tenant):
    Tenant.objects.filter(id=tenant.id).update(is_active=False)
    response = operator_client.post(
        "/admin/jobs/deadletter/",
        {"action": "retry_jobs", "_selected_action": [str(dead_job.id)]},
        follow=True,
    )
    assert "the tenant acme is stopped: resume it first" in response.content.decode()
    assert Job.objects.get(id=dead_job.id).status == "dead"


@pytest.mark.parametrize("query", ["no_such_field=1", "priority__exact=high"])
def test_retry_all_matching_answers_400_to_a_filter_it_cannot_apply(
    operator_client, dead_job, query
):
    for send in (operator_client.get, operator_client.post):
        response = send(f"/admin/jobs/deadletter/retry-matching/?{query}")
        assert response.status_code == 400
        assert "cannot be applied" in response.content.decode()
    assert Job.objects.get(id=dead_job.id).status == "dead"
