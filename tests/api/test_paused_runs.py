"""A paused cron task's runs are not made, and not silently: its resume records every run
from the one it was paused at to its new next run as one `paused` ledger entry."""

from datetime import UTC, datetime, timedelta

from django.db import transaction

from tasks.models import SkippedRun, Task
from tasks.paused_runs import record_paused_runs


def a_minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0)


def resume(api, task: Task) -> dict:
    response = api.post(f"/v1/tasks/{task.id}/resume", HTTP_IF_MATCH=f'"{task.version}"')
    assert response.status_code == 200, response.content
    return response.json()


def test_a_resume_records_the_runs_of_the_pause_as_one_entry(api, add_task):
    paused_at_run = a_minute(datetime.now(UTC)) - timedelta(days=365)
    task = add_task(status="paused", next_run_at=paused_at_run)
    body = resume(api, task)
    next_run = Task.objects.get(id=task.id).next_run_at
    (entry,) = SkippedRun.objects.filter(task_id=task.id)
    expected = (next_run - paused_at_run) // timedelta(minutes=1)
    assert expected > 525_000
    assert (entry.reason, entry.count) == ("paused", expected)
    assert entry.first_scheduled_at == paused_at_run
    assert entry.last_scheduled_at == next_run - timedelta(minutes=1)
    assert body["skipped_runs"] == expected


def test_a_short_pause_between_two_runs_records_nothing(api, add_task):
    task = add_task(status="paused", next_run_at=a_minute(datetime.now(UTC)) + timedelta(hours=1))
    body = resume(api, task)
    assert not SkippedRun.objects.filter(task_id=task.id).exists()
    assert body["skipped_runs"] == 0


def test_pauses_without_a_run_between_them_are_one_entry(add_task):
    paused_at = a_minute(datetime.now(UTC)) - timedelta(hours=3)
    task = add_task(next_run_at=paused_at + timedelta(hours=1))  # as a first resume leaves it
    with transaction.atomic():
        task.save(update_fields=record_paused_runs(task, paused_at, paused_at))
    task.next_run_at = paused_at + timedelta(hours=2)  # paused again, before any run was made
    with transaction.atomic():
        task.save(update_fields=record_paused_runs(task, paused_at + timedelta(hours=1), paused_at))
    (entry,) = SkippedRun.objects.filter(task_id=task.id)
    assert (entry.count, entry.last_scheduled_at) == (120, paused_at + timedelta(minutes=119))
    assert Task.objects.get(id=task.id).skipped_runs == 120


def test_a_schedule_edit_while_paused_keeps_the_runs_missed_before_it(api, add_task):
    paused_at_run = a_minute(datetime.now(UTC)) - timedelta(hours=5)
    task = add_task(status="paused", next_run_at=paused_at_run)
    response = api.patch(
        f"/v1/tasks/{task.id}", {"max_runs": 100_000}, format="json",
        HTTP_IF_MATCH=f'"{task.version}"',
    )  # fmt: skip
    assert response.status_code == 200, response.content
    resume(api, Task.objects.get(id=task.id))
    (entry,) = SkippedRun.objects.filter(task_id=task.id)
    assert entry.reason == "paused" and entry.first_scheduled_at == paused_at_run
    assert entry.count >= 300  # five hours of minutes, the edit's included
