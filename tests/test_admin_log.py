"""Every console action done leaves an entry in the admin's log, naming who did it to what."""

from datetime import UTC, datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType

from jobs.models import Job, RetryAllOperation
from tasks.models import Task

TENANTS = "/admin/tasks/tenant/"
TASKS = "/admin/tasks/task/"
JOBS = "/admin/jobs/job/"
DLQ = "/admin/jobs/deadletter/"


@pytest.fixture
def operator(client, db) -> User:
    user = User.objects.create_superuser("ops", "ops@example.com", "pw")
    client.force_login(user)
    return user


@pytest.fixture
def task(add_task) -> Task:
    return add_task(name="nightly")


def make_job(task: Task, status: str) -> Job:
    now = datetime.now(UTC)
    return Job.objects.create(
        tenant=task.tenant, task=task, scheduled_at=now, next_attempt_at=now, status=status
    )


def logged(user: User, target) -> list[str]:
    """The log's messages about the row, by this user."""
    kind = ContentType.objects.get_for_model(type(target), for_concrete_model=False)
    entries = LogEntry.objects.filter(user=user, content_type=kind, object_id=str(target.pk))
    return [entry.get_change_message() for entry in entries]


def run_action(client, page: str, action: str, target) -> None:
    client.post(page, {"action": action, "index": 0, "_selected_action": [str(target.pk)]})


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("deactivate", "Stopped the tenant"),
        ("reactivate", "Resumed the tenant"),
        ("revoke_tokens", "Revoked its tokens"),
        ("rotate_signing_secret", "Rotated the signing secret"),
    ],
)
def test_a_tenant_action_is_logged(client, operator, tenant, action, message):
    run_action(client, TENANTS, action, tenant)
    assert logged(operator, tenant) == [message]


@pytest.mark.parametrize(
    ("action", "message"),
    [("pause", "Paused"), ("run_now", "Ran now"), ("soft_delete", "Deleted")],
)
def test_a_task_action_is_logged(client, operator, task, action, message):
    run_action(client, TASKS, action, task)
    assert logged(operator, task) == [message]


def test_resuming_a_task_is_logged(client, operator, task):
    Task.objects.filter(id=task.id).update(status="paused")
    run_action(client, TASKS, "resume", task)
    assert logged(operator, task) == ["Resumed"]


@pytest.mark.parametrize(("button", "message"), [("pause", "Paused"), ("run", "Ran now")])
def test_a_task_button_is_logged(client, operator, task, button, message):
    client.post(f"{TASKS}{task.id}/{button}/")
    assert logged(operator, task) == [message]


@pytest.mark.parametrize(
    ("page", "action", "status", "message"),
    [
        (JOBS, "cancel_jobs", "pending", "Cancelled"),
        (JOBS, "retry_jobs", "dead", "Retried"),
        (DLQ, "retry_jobs", "dead", "Retried"),
        (DLQ, "discard_jobs", "dead", "Discarded"),
    ],
)
def test_a_job_action_is_logged(client, operator, task, page, action, status, message):
    job = make_job(task, status)
    run_action(client, page, action, job)
    assert logged(operator, job) == [message]


@pytest.mark.parametrize(
    ("button", "status", "message"),
    [("retry", "dead", "Retried"), ("cancel", "pending", "Cancelled")],
)
def test_a_job_button_is_logged(client, operator, task, button, status, message):
    job = make_job(task, status)
    client.post(f"{JOBS}{job.id}/{button}/")
    assert logged(operator, job) == [message]


def test_retrying_all_matching_logs_the_operation_once(client, operator, task):
    jobs = [make_job(task, "dead") for _ in range(2)]
    client.post(f"{DLQ}retry-matching/")
    operation = RetryAllOperation.objects.get()
    assert logged(operator, operation) == ["Asked to retry all 2 matching dead jobs"]
    assert [logged(operator, job) for job in jobs] == [[], []]


def test_a_refused_action_is_not_logged(client, operator, task):
    job = make_job(task, "succeeded")
    run_action(client, JOBS, "retry_jobs", job)
    assert logged(operator, job) == []
