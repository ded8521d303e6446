"""Operators pause, resume and delete tasks in the admin through the API's use cases."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from jobs.models import Job
from tasks.models import Task, Tenant


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def task_with_a_waiting_job(add_task):
    task = add_task(name="nightly")
    now = datetime.now(UTC)
    Job.objects.create(tenant=task.tenant, task=task, scheduled_at=now, next_attempt_at=now)
    return task


def act(operator_client, action: str, task):
    return operator_client.post(
        "/admin/tasks/task/", {"action": action, "_selected_action": [str(task.id)]}, follow=True
    )


def test_pausing_in_the_admin_holds_the_tasks_jobs(operator_client, task_with_a_waiting_job):
    act(operator_client, "pause", task_with_a_waiting_job)
    assert Task.objects.get(id=task_with_a_waiting_job.id).status == "paused"
    assert Job.objects.get(task=task_with_a_waiting_job).status == "held"


def test_resuming_in_the_admin_releases_them(operator_client, task_with_a_waiting_job):
    act(operator_client, "pause", task_with_a_waiting_job)
    act(operator_client, "resume", task_with_a_waiting_job)
    assert Task.objects.get(id=task_with_a_waiting_job.id).status == "active"
    assert Job.objects.get(task=task_with_a_waiting_job).status == "pending"


def test_deleting_in_the_admin_is_the_soft_delete(operator_client, task_with_a_waiting_job):
    act(operator_client, "soft_delete", task_with_a_waiting_job)
    assert Task.objects.get(id=task_with_a_waiting_job.id).status == "deleted"
    assert Job.objects.get(task=task_with_a_waiting_job).status == "cancelled"


def test_the_admin_offers_no_row_delete(operator_client, task_with_a_waiting_job):
    page = operator_client.get(f"/admin/tasks/task/{task_with_a_waiting_job.id}/delete/")
    assert page.status_code == 403
    assert Task.objects.filter(id=task_with_a_waiting_job.id).exists()


def test_a_refused_action_is_reported_not_a_crash(operator_client, task_with_a_waiting_job):
    Task.objects.filter(id=task_with_a_waiting_job.id).update(status="completed")
    response = act(operator_client, "pause", task_with_a_waiting_job)
    assert response.status_code == 200
    assert "cannot be paused" in response.content.decode()


def test_running_now_in_the_admin_makes_a_job_due_now(operator_client, task_with_a_waiting_job):
    before = datetime.now(UTC)
    act(operator_client, "run_now", task_with_a_waiting_job)
    newest = Job.objects.filter(task=task_with_a_waiting_job).order_by("-scheduled_at").first()
    assert newest.status == "pending" and newest.next_attempt_at >= before


def test_a_tasks_page_is_read_only_with_no_save_button(operator_client, task_with_a_waiting_job):
    page = operator_client.get(f"/admin/tasks/task/{task_with_a_waiting_job.id}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()


def test_the_pause_button_of_a_tasks_page_pauses_it(operator_client, task_with_a_waiting_job):
    task = task_with_a_waiting_job
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert f"/admin/tasks/task/{task.id}/pause/" in page
    operator_client.post(f"/admin/tasks/task/{task.id}/pause/")
    assert Task.objects.get(id=task.id).status == "paused"


def test_the_run_now_button_of_a_tasks_page_makes_a_job(operator_client, task_with_a_waiting_job):
    task = task_with_a_waiting_job
    response = operator_client.post(f"/admin/tasks/task/{task.id}/run/")
    assert response.status_code == 302
    assert Job.objects.filter(task=task).count() == 2


def test_a_deleted_tasks_page_offers_no_button(operator_client, task_with_a_waiting_job):
    task = task_with_a_waiting_job
    act(operator_client, "soft_delete", task)
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert "/pause/" not in page and "/run/" not in page


def test_a_one_off_whose_job_waits_has_a_pause_button(operator_client, add_task):
    now = datetime.now(UTC)
    task = add_task(cron=None, run_at=now, next_run_at=None, status="completed")
    Job.objects.create(tenant=task.tenant, task=task, scheduled_at=now, next_attempt_at=now)
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    assert f"/admin/tasks/task/{task.id}/pause/" in page


def test_running_now_a_stopped_tenants_task_is_refused_with_no_job(
    operator_client, task_with_a_waiting_job
):
    task = task_with_a_waiting_job
    Tenant.objects.filter(id=task.tenant_id).update(is_active=False)
    response = act(operator_client, "run_now", task)
    assert "the tenant acme is stopped: resume it first" in response.content.decode()
    assert Job.objects.filter(task=task).count() == 1
