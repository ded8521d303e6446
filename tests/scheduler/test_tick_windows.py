"""The tick inside a task's window and run limit: no run at or after ends_at, the run that
reaches max_runs completes the task, and only the schedule's runs count."""

from datetime import timedelta

from django.utils import timezone

from jobs.run_now import task_run_now
from tasks.tick import run_tick
from tests.conftest import PUBLIC_URL
from tests.scheduler.conftest import NOW
from tests.scheduler.test_tick import jobs_of, reload

GRID = NOW.replace(second=0)


def test_the_run_that_reaches_max_runs_completes_the_task(add_task):
    task = add_task(cron="* * * * *", next_run_at=GRID, max_runs=3, runs_made=2)
    run_tick(now=NOW)
    stored = reload(task)
    assert [job.scheduled_at for job in jobs_of(task)] == [GRID]
    assert (stored.status, stored.next_run_at, stored.runs_made) == ("completed", None, 3)


def test_each_run_made_by_the_tick_counts_toward_max_runs(add_task):
    task = add_task(cron="* * * * *", next_run_at=GRID, max_runs=5)
    for minute in range(3):
        run_tick(now=GRID + timedelta(minutes=minute))
    stored = reload(task)
    assert (stored.runs_made, stored.status) == (3, "active")


def test_a_run_made_now_does_not_count_toward_max_runs(add_task, tenant):
    task = add_task(cron=None, interval_seconds=60, next_run_at=GRID + timedelta(hours=1))
    task_run_now(actor="tests", tenant=tenant, task_id=task.id)
    assert reload(task).runs_made == 0


def test_a_next_run_at_the_end_of_the_window_completes_the_task(add_task):
    end = GRID + timedelta(minutes=1)
    task = add_task(cron="* * * * *", next_run_at=GRID, ends_at=end)
    run_tick(now=NOW)
    stored = reload(task)
    assert [job.scheduled_at for job in jobs_of(task)] == [GRID]
    assert (stored.status, stored.next_run_at) == ("completed", None)


def test_a_due_run_at_or_after_the_end_is_not_made(add_task):
    task = add_task(cron=None, interval_seconds=60, next_run_at=GRID, ends_at=GRID)
    run_tick(now=NOW)
    stored = reload(task)
    assert jobs_of(task) == []
    assert (stored.status, stored.next_run_at, stored.runs_made) == ("completed", None, 0)


def test_a_skip_past_the_end_of_the_window_completes_the_task(add_task):
    due = GRID - timedelta(hours=2)
    end = GRID - timedelta(minutes=5)
    task = add_task(cron=None, interval_seconds=60, next_run_at=due, ends_at=end)
    task.misfire_policy = "skip"
    task.save(update_fields=["misfire_policy"])
    run_tick(now=NOW)
    assert jobs_of(task) == [] and reload(task).status == "completed"


def test_no_run_is_made_before_the_start_of_the_window(api):
    start = (timezone.now() + timedelta(hours=1)).replace(microsecond=0)
    body = {"interval_seconds": 60, "url": PUBLIC_URL, "starts_at": start.isoformat()}
    created = api.post("/v1/tasks", body, format="json").json()
    assert run_tick(now=start - timedelta(seconds=1)).jobs == 0
    assert run_tick(now=start).jobs == 1
    assert created["next_run_at"] == start.isoformat().replace("+00:00", "Z")
