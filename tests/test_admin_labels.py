"""Labels on the console's task and job pages, one `key: value` chip each."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from jobs.models import Job


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


def add_job(task, status: str = "pending", labels=None) -> Job:
    now = datetime.now(UTC)
    return Job.objects.create(
        tenant=task.tenant,
        task=task,
        scheduled_at=now,
        next_attempt_at=now,
        status=status,
        labels=labels,
    )


def test_a_tasks_page_shows_its_labels(operator_client, add_task):
    task = add_task(labels={"env": "prod", "team": "billing"})
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert "<code>env: prod</code> <code>team: billing</code>" in page


def test_a_jobs_page_shows_its_labels(operator_client, add_task):
    job = add_job(add_task(), labels={"env": "prod"})
    page = operator_client.get(f"/admin/jobs/job/{job.id}/change/").content.decode()
    assert "<code>env: prod</code>" in page


def test_a_dead_jobs_page_shows_its_labels(operator_client, add_task):
    job = add_job(add_task(), "dead", labels={"env": "prod"})
    page = operator_client.get(f"/admin/jobs/deadletter/{job.id}/change/")
    assert "<code>env: prod</code>" in page.content.decode()


def test_a_label_is_escaped_on_the_page(operator_client, add_task):
    task = add_task(labels={"note": "<b>x</b>"})
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert "<code>note: &lt;b&gt;x&lt;/b&gt;</code>" in page
