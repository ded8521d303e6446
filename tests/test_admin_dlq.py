"""Operators inspect the dead letter queue in the admin and retry from there."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from jobs.models import Job


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
