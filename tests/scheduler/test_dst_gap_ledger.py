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
    assert list(Job.objects.filter(task=task).values_list("scheduled_at", flat=True)) == [GAP_END]
    return Task.objects.get(id=task.id)


def ledger_of(task) -> list[tuple]:
    rows = SkippedRun.objects.filter(task_id=task.id)
    return [(r.reason, r.first_scheduled_at, r.last_scheduled_at, r.count) for r in rows]


@pytest.mark.parametrize(("cron", "skipped"), [("15,45 2 * * *", 1), ("0,15,30,45 2 * * *", 3)])
def test_wall_times_collapsed_into_the_gap_end_run_are_one_dst_gap_entry(add_task, cron, skipped):
    task = tick_at_gap_end(add_task, cron)
    assert ledger_of(task) == [("dst_gap", GAP_END, GAP_END, skipped)]
    assert task.skipped_runs == skipped


@pytest.mark.parametrize("cron", ["* * * * *", "*/15 * * * *", "0 * * * *"])
def test_a_wildcard_or_step_hour_loses_nothing_in_elapsed_time_at_the_gap(add_task, cron):
    task = tick_at_gap_end(add_task, cron)
    assert ledger_of(task) == [] and task.skipped_runs == 0


@pytest.mark.parametrize("cron", ["30 2 * * *", "0 3 * * *"])
def test_a_single_wall_time_moved_to_the_gap_end_is_no_skip(add_task, cron):
    task = tick_at_gap_end(add_task, cron)
    assert ledger_of(task) == [] and task.skipped_runs == 0


def test_a_utc_task_at_the_same_instant_records_nothing(add_task):
    task = tick_at_gap_end(add_task, "* * * * *", timezone="UTC")
    assert ledger_of(task) == []


def test_a_gap_end_run_skipped_for_overlap_records_the_other_wall_times_too(add_task):
    task = add_task(cron="15,45 2 * * *", timezone="Europe/Madrid", overlap="skip")
    earlier = datetime(2027, 3, 27, 1, 15, tzinfo=UTC)
    Job.objects.create(
        tenant=task.tenant, task=task, status="running", scheduled_at=earlier,
        next_attempt_at=earlier,
    )  # fmt: skip
    Task.objects.filter(id=task.id).update(next_run_at=GAP_END)
    run_tick(now=GAP_END)
    rows = sorted(ledger_of(task))
    assert rows == [("dst_gap", GAP_END, GAP_END, 1), ("overlap", GAP_END, GAP_END, 1)]
