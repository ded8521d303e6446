"""A task's next runs as the tick will make them: from next_run_at, through the zone's
daylight-saving rules, the task's own `H`, its window and its run limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tasks import schedule
from tasks.models import Task, TaskStatus
from tasks.next_runs import task_next_runs
from tasks.timing import schedule_of

NEXT = datetime(2027, 3, 27, 1, 30, tzinfo=UTC)  # 02:30 in Madrid, the day before the gap


def task(**fields) -> Task:
    values = dict(
        id="0190f3d4-0000-7000-8000-000000000001",
        cron="30 2 * * *",
        timezone="Europe/Madrid",
        next_run_at=NEXT,
        status=TaskStatus.ACTIVE,
        created_at=NEXT - timedelta(days=3),
    )
    values.update(fields)
    return Task(**values)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_the_next_five_runs_start_at_next_run_at_and_follow_the_zone():
    runs = [run.at for run in task_next_runs(task())]
    assert runs == [
        NEXT,
        utc(2027, 3, 28, 1, 0),  # 02:30 does not exist that night: run when the gap ends
        utc(2027, 3, 29, 0, 30),  # 02:30 in summer time
        utc(2027, 3, 30, 0, 30),
        utc(2027, 3, 31, 0, 30),
    ]


def test_a_run_moved_by_the_gap_is_marked():
    marks = [run.dst for run in task_next_runs(task())]
    assert marks == [None, "moved", None, None, None]


def test_the_runs_use_the_tasks_own_h():
    seed = "0190f3d4-0000-7000-8000-000000000001"
    minute = int(schedule.resolve_hash("H 2 * * *", seed).split()[0])
    hashed = task(cron="H 2 * * *", next_run_at=utc(2027, 4, 1, 0, minute))
    assert {run.local.minute for run in task_next_runs(hashed)} == {minute}


def test_the_runs_are_the_scheduler_s_own_next_runs():
    plan, runs = (
        schedule_of(task(cron="*/7 9-17 * * 1-5")),
        task_next_runs(task(cron="*/7 9-17 * * 1-5")),
    )
    for earlier, later in zip(runs, runs[1:], strict=False):
        assert plan.next_after(earlier.at) == later.at


def test_the_run_limit_leaves_only_the_runs_left():
    assert len(task_next_runs(task(max_runs=10, runs_made=8))) == 2
    assert task_next_runs(task(max_runs=10, runs_made=10)) == []


def test_no_run_at_or_after_the_end():
    runs = task_next_runs(task(ends_at=utc(2027, 3, 29, 0, 30)))
    assert [run.at for run in runs] == [NEXT, utc(2027, 3, 28, 1, 0)]


def test_an_interval_runs_on_its_grid_from_next_run_at():
    runs = task_next_runs(task(cron=None, interval_seconds=900))
    assert [run.at for run in runs] == [NEXT + timedelta(minutes=15 * k) for k in range(5)]


def test_a_one_off_task_has_its_one_run():
    assert [run.at for run in task_next_runs(task(cron=None, run_at=NEXT))] == [NEXT]


def test_a_paused_task_has_no_next_runs():
    assert task_next_runs(task(status=TaskStatus.PAUSED)) == []
