"""The tick on interval tasks: runs on the grid of the interval in elapsed time, the
misfire policies as for cron."""

from datetime import UTC, datetime, timedelta

from tasks.tick import run_tick
from tests.scheduler.conftest import NOW
from tests.scheduler.test_tick import jobs_of, reload

GRID = NOW.replace(second=0)


def test_a_due_interval_task_makes_its_job_at_the_grid_instant_and_moves_one_interval(add_task):
    task = add_task(cron=None, interval_seconds=90, next_run_at=GRID)
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [GRID]
    assert reload(task).next_run_at == GRID + timedelta(seconds=90)


def test_an_interval_keeps_elapsed_time_across_a_dst_change_in_its_zone(add_task):
    due = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # 01:30 CET, half an hour before the gap
    task = add_task(cron=None, interval_seconds=3600, timezone="Europe/Madrid", next_run_at=due)
    run_tick(now=due)
    assert reload(task).next_run_at == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 CEST


def test_an_interval_keeps_elapsed_time_across_fall_back(add_task):
    due = datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 01:30 EDT, the first of the two
    task = add_task(cron=None, interval_seconds=3600, timezone="America/New_York", next_run_at=due)
    run_tick(now=due)
    assert reload(task).next_run_at == datetime(2026, 11, 1, 6, 30, tzinfo=UTC)  # 01:30 EST


def test_skip_on_an_interval_jumps_to_the_first_grid_instant_after_now(add_task):
    due = GRID - timedelta(hours=2)
    task = add_task(cron=None, interval_seconds=420, next_run_at=due, misfire_policy="skip")
    run_tick(now=NOW)
    assert jobs_of(task) == []
    following = reload(task).next_run_at
    assert following > NOW and following - timedelta(seconds=420) <= NOW
    assert (following - due) % timedelta(seconds=420) == timedelta(0)


def test_run_once_on_an_interval_makes_one_job_then_jumps_past_now(add_task):
    due = GRID - timedelta(hours=2)
    task = add_task(cron=None, interval_seconds=420, next_run_at=due, misfire_policy="run_once")
    run_tick(now=NOW)
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [due]
    following = reload(task).next_run_at
    assert following > NOW and (following - due) % timedelta(seconds=420) == timedelta(0)


def test_run_all_on_an_interval_makes_each_missed_run_one_tick_at_a_time(add_task):
    due = GRID - timedelta(minutes=3)
    task = add_task(cron=None, interval_seconds=60, next_run_at=due, misfire_policy="run_all")
    for _ in range(5):
        run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [
        due + timedelta(minutes=i) for i in range(4)
    ]


def test_an_interval_whose_next_run_is_past_year_9999_completes(add_task):
    last = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    task = add_task(cron=None, interval_seconds=7200, next_run_at=last)
    run_tick(now=last)
    assert reload(task).status == "completed"
