"""The tick keeps one schedule per (expression, zone, end) for the whole process: an edit
to any of them is planned by the new value at the next tick, never by a cached old one."""

from datetime import UTC, datetime, timedelta

from tasks import schedule
from tasks.models import Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

HOUR = NOW.replace(minute=0, second=0)  # 12:00 UTC, a run of every expression below


def reload(task) -> Task:
    return Task.objects.get(id=task.id)


def due_again(task, when: datetime, **changes) -> None:
    Task.objects.filter(id=task.id).update(next_run_at=when, **changes)


def test_a_task_whose_cron_changes_is_planned_by_its_new_expression(add_task):
    task = add_task(cron="0 * * * *", next_run_at=HOUR)
    run_tick(now=NOW)
    assert reload(task).next_run_at == HOUR + timedelta(hours=1)
    due_again(task, HOUR + timedelta(hours=1), cron="*/5 * * * *")
    run_tick(now=NOW + timedelta(hours=1))
    assert reload(task).next_run_at == HOUR + timedelta(hours=1, minutes=5)


def test_a_task_whose_zone_changes_is_planned_in_its_new_zone(add_task):
    due = datetime(2026, 6, 1, 7, 0, tzinfo=UTC)  # 09:00 in Madrid (summer time)
    task = add_task(cron="0 9 * * *", timezone="Europe/Madrid", next_run_at=due)
    run_tick(now=due)
    assert reload(task).next_run_at == due + timedelta(days=1)
    due_again(task, due, timezone="America/New_York")
    run_tick(now=due)
    assert reload(task).next_run_at == datetime(2026, 6, 1, 13, 0, tzinfo=UTC)  # 09:00 EDT


def test_a_task_whose_end_moves_earlier_is_bounded_by_its_new_end(add_task):
    task = add_task(cron="* * * * *", next_run_at=HOUR, ends_at=HOUR + timedelta(hours=1))
    run_tick(now=NOW)
    assert reload(task).status == "active"
    due_again(task, HOUR + timedelta(minutes=1), ends_at=HOUR + timedelta(minutes=2))
    run_tick(now=NOW + timedelta(minutes=1))
    stored = reload(task)
    assert (stored.status, stored.next_run_at) == ("completed", None)


def test_two_tasks_of_one_hashed_expression_keep_their_own_minutes(add_task):
    first = add_task(cron="H * * * *", next_run_at=HOUR)
    second = add_task(cron="H * * * *", next_run_at=HOUR)
    run_tick(now=NOW)
    for task in (first, second):
        minute = int(schedule.resolve_hash("H * * * *", str(task.id)).split()[0])
        expected = HOUR + timedelta(minutes=minute) if minute else HOUR + timedelta(hours=1)
        assert reload(task).next_run_at == expected
