"""The tick's run at a spring-forward gap's end records the wall times it stands for."""

from datetime import UTC, datetime

import pytest

from jobs.models import Job
from tasks.models import SkippedRun, Task
from tasks.tick import run_tick

GAP_END = datetime(2027, 3, 28, 1, 0, tzinfo=UTC)  # Madrid: 02:00 CET became 03:00 CEST


def tick_at_gap_end(add_task, cron: str, timezone: str = "Europe/Madrid") -> Task:
    task = add_task(cron=cron, timezone=timezone, next_run_at=GAP_END)
    run_tick(now=GAP_END)
    assert list(Job.objects.filter(task=task).values_list("scheduled_at", flat=True)) == [
        GAP_END
    ]
    return Task.objects.get(id=task.id)


def ledger_of(task) -> list[tuple]:
    rows = SkippedRun.objects.filter(task_id=task.id)
    return [(r.reason, r.first_scheduled_at, r.last_scheduled_at, r.count) for r in rows]


@pytest.mark.parametrize(("cron", "skipped"), [("15,45 2 * * *", 1), ("* * * * *", 60)])
def test_wall_times_collapsed_into_the_gap_end_run_are_one_dst_gap_entry(
    add_task, cron, skipped
):
    task = tick_at_gap_end(add_task, cron)
    assert ledger_of(task) == [("dst_gap", GAP_END, GAP_END, skipped)]
    assert task.skipped_runs == skipped


@pytest.mark.parametrize("cron", ["30 2 * * *", "0 3 * * *"])
def test_a_single_wall_time_moved_to_the_gap_end_is_no_skip(add_task, cron):
    task = tick_at_gap_end(add_task, cron)
    assert ledger_of(task) == [] and task.skipped_runs == 0


def test_a_utc_task_at_the_same_instant_records_nothing(add_task):
    task = tick_at_gap_end(add_task, "* * * * *", timezone="UTC")
    assert ledger_of(task) == []
