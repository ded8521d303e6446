"""Runs dropped by the `skip` and `run_once` misfire policies after an outage are recorded
as one `misfire` entry of the skipped-run ledger (first, last, count), set-based."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tasks.models import SkippedRun, Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

TWO_HOURS_AGO = NOW.replace(second=0) - timedelta(hours=2)


def entries_of(task) -> list[SkippedRun]:
    return list(SkippedRun.objects.filter(task_id=task.id))


def test_skip_records_every_dropped_run_as_one_entry(add_task):
    task = add_task(cron="*/10 * * * *", next_run_at=TWO_HOURS_AGO, misfire_policy="skip")
    run_tick(now=NOW)
    (entry,) = entries_of(task)
    last = NOW.replace(second=0, minute=0)  # the last run at or before NOW
    assert (entry.reason, entry.first_scheduled_at, entry.last_scheduled_at) == (
        "misfire", TWO_HOURS_AGO, last,
    )  # fmt: skip
    assert entry.count == (last - TWO_HOURS_AGO) // timedelta(minutes=10) + 1
    assert Task.objects.get(id=task.id).skipped_runs == entry.count


def test_run_once_records_the_runs_after_the_one_it_makes(add_task):
    task = add_task(cron="*/10 * * * *", next_run_at=TWO_HOURS_AGO, misfire_policy="run_once")
    run_tick(now=NOW)
    (entry,) = entries_of(task)
    assert entry.first_scheduled_at == TWO_HOURS_AGO + timedelta(minutes=10)
    assert entry.last_scheduled_at == NOW.replace(second=0, minute=0)


def test_a_slightly_late_run_is_made_and_records_nothing(add_task):
    task = add_task(
        cron="*/10 * * * *", next_run_at=NOW - timedelta(seconds=5), misfire_policy="skip"
    )
    run_tick(now=NOW)
    assert entries_of(task) == []


def test_the_entries_of_a_whole_tick_are_one_insert(add_task):
    for _ in range(200):
        add_task(cron="*/10 * * * *", next_run_at=TWO_HOURS_AGO, misfire_policy="skip")
    with CaptureQueriesContext(connection) as queries:
        assert run_tick(now=NOW).selected == 200
    writes = [q for q in queries.captured_queries if "skipped_runs (" in q["sql"]]
    assert len(writes) == 1 and SkippedRun.objects.count() == 200


def test_the_run_made_by_run_once_closes_the_entry_before_its_drops(add_task):
    task = add_task(cron="*/10 * * * *", next_run_at=TWO_HOURS_AGO, misfire_policy="run_once")
    run_tick(now=NOW - timedelta(hours=1))  # a first outage: one run made, the rest dropped
    Task.objects.filter(id=task.id).update(
        next_run_at=NOW.replace(second=0) - timedelta(minutes=40)
    )
    run_tick(now=NOW)  # a second one, with a run made between the two
    counts = sorted((e.first_scheduled_at, e.count) for e in entries_of(task))
    assert [count for _, count in counts] == [6, 4]  # not one entry of 10


def test_run_once_reaching_max_runs_records_no_misfire_for_runs_past_the_limit(add_task):
    task = add_task(
        cron="* * * * *", misfire_policy="run_once", max_runs=5, runs_made=4,
        next_run_at=NOW.replace(second=0) - timedelta(minutes=100),
    )  # fmt: skip
    run_tick(now=NOW)
    stored = Task.objects.get(id=task.id)
    assert stored.status == "completed" and stored.runs_made == 5
    assert not SkippedRun.objects.filter(task_id=task.id).exists()
