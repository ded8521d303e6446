"""The tick rules: due tasks become jobs, next runs advance, nothing is skipped."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job
from tasks.models import Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW


def jobs_of(task) -> list[Job]:
    return list(Job.objects.filter(task=task).order_by("scheduled_at"))


def reload(task) -> Task:
    return Task.objects.get(id=task.id)


def test_one_off_task_becomes_one_job_and_completes(add_task):
    task = add_task(cron=None, run_at=NOW, next_run_at=NOW)
    result = run_tick(now=NOW)
    assert result.jobs == 1 and result.completed == 1
    assert [job.scheduled_at for job in jobs_of(task)] == [NOW]
    stored = reload(task)
    assert stored.status == "completed" and stored.next_run_at is None


def test_cron_task_becomes_a_job_and_advances_to_its_next_run(add_task):
    due = NOW.replace(second=0)
    task = add_task(cron="*/5 * * * *", next_run_at=due.replace(minute=0))
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [due.replace(minute=0)]
    assert reload(task).next_run_at == due.replace(minute=5)


def test_job_copies_what_it_needs_from_the_task(add_task, tenant):
    task = add_task(priority=2, timeout_seconds=12, max_attempts=7, backoff_base_seconds=3)
    run_tick(now=NOW)
    job = jobs_of(task)[0]
    assert job.tenant_id == tenant.id
    assert (job.priority, job.timeout_seconds, job.max_attempts, job.backoff_base_seconds) == (
        2,
        12,
        7,
        3,
    )
    assert job.status == "pending" and job.attempt == 0
    assert job.next_attempt_at == job.scheduled_at == NOW


def test_task_not_yet_due_is_left_alone(add_task):
    task = add_task(next_run_at=NOW + timedelta(minutes=1))
    assert run_tick(now=NOW).selected == 0
    assert jobs_of(task) == []


def test_lookahead_creates_jobs_due_soon(add_task):
    soon = NOW + timedelta(seconds=4)
    task = add_task(cron=None, run_at=soon, next_run_at=soon)
    assert run_tick(now=NOW, lookahead_seconds=5).jobs == 1
    assert jobs_of(task)[0].scheduled_at == soon


@pytest.mark.parametrize("status", ["paused", "completed", "deleted"])
def test_inactive_task_is_never_picked(add_task, status):
    task = add_task(status=status)
    assert run_tick(now=NOW).selected == 0
    assert jobs_of(task) == []


def test_task_reached_late_is_created_late_not_skipped(add_task):
    long_ago = datetime(2020, 1, 1, tzinfo=UTC)
    task = add_task(cron=None, run_at=long_ago, next_run_at=long_ago)
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [long_ago]


def test_run_all_creates_each_missed_run_one_tick_at_a_time(add_task):
    start = NOW.replace(second=0) - timedelta(minutes=3)
    task = add_task(cron="* * * * *", next_run_at=start, misfire_policy="run_all")
    for _ in range(5):
        run_tick(now=NOW)
    expected = [start + timedelta(minutes=i) for i in range(4)]
    assert [job.scheduled_at for job in jobs_of(task)] == expected
    assert reload(task).next_run_at == NOW.replace(second=0) + timedelta(minutes=1)


def test_run_once_creates_one_job_for_the_missed_runs_then_the_next_future_run(add_task):
    start = NOW.replace(second=0) - timedelta(hours=2)
    task = add_task(cron="*/10 * * * *", next_run_at=start, misfire_policy="run_once")
    run_tick(now=NOW)
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [start]
    assert reload(task).next_run_at == NOW.replace(second=0, minute=10)


def test_skip_drops_missed_runs_and_jumps_to_the_next_future_run(add_task):
    start = NOW.replace(second=0) - timedelta(hours=2)
    task = add_task(cron="*/10 * * * *", next_run_at=start, misfire_policy="skip")
    run_tick(now=NOW)
    assert jobs_of(task) == []
    assert reload(task).next_run_at == NOW.replace(second=0, minute=10)


def test_skip_still_runs_a_run_that_is_only_slightly_late(add_task):
    due = NOW - timedelta(seconds=5)
    task = add_task(cron="*/10 * * * *", next_run_at=due, misfire_policy="skip")
    run_tick(now=NOW)
    assert [job.scheduled_at for job in jobs_of(task)] == [due]


def test_next_run_is_computed_in_the_tasks_time_zone(add_task):
    due = datetime(2026, 6, 1, 7, 0, tzinfo=UTC)  # 09:00 in Madrid (summer time)
    task = add_task(cron="0 9 * * *", timezone="Europe/Madrid", next_run_at=due)
    run_tick(now=due)
    assert reload(task).next_run_at == datetime(2026, 6, 2, 7, 0, tzinfo=UTC)


def test_spring_forward_day_runs_a_0230_task_at_the_end_of_the_gap(add_task):
    due = datetime(2026, 3, 28, 1, 30, tzinfo=UTC)  # 02:30 CET on the day before
    task = add_task(cron="30 2 * * *", timezone="Europe/Madrid", next_run_at=due)
    run_tick(now=due)
    assert reload(task).next_run_at == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)  # 03:00 CEST


def test_fall_back_day_runs_a_0130_task_once(add_task):
    due = datetime(2026, 10, 31, 5, 30, tzinfo=UTC)  # 01:30 EDT the day before
    task = add_task(cron="30 1 * * *", timezone="America/New_York", next_run_at=due)
    run_tick(now=due)
    first = reload(task).next_run_at
    assert first == datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 01:30 EDT, first occurrence
    run_tick(now=first)
    assert reload(task).next_run_at == datetime(2026, 11, 2, 6, 30, tzinfo=UTC)  # next day EST


def test_tick_never_changes_version(add_task):
    task = add_task(version=4)
    run_tick(now=NOW)
    assert reload(task).version == 4


def test_existing_job_makes_the_insert_a_no_op_and_the_task_still_advances(add_task, tenant):
    task = add_task(next_run_at=NOW.replace(second=0))
    existing = Job.objects.create(
        tenant=tenant, task=task, scheduled_at=task.next_run_at, next_attempt_at=NOW
    )
    run_tick(now=NOW)
    assert [job.id for job in jobs_of(task)] == [existing.id]
    assert reload(task).next_run_at == NOW.replace(second=0) + timedelta(minutes=1)


def test_priority_order_inside_a_tick(add_task):
    late_low = add_task(priority=9, next_run_at=NOW - timedelta(hours=1))
    urgent = add_task(priority=0, next_run_at=NOW)
    middle = add_task(priority=4, next_run_at=NOW - timedelta(minutes=5))
    result = run_tick(now=NOW, batch_size=2)
    assert result.selected == 2
    assert jobs_of(urgent) and jobs_of(middle)
    assert jobs_of(late_low) == []


def test_within_one_priority_the_oldest_due_goes_first(add_task):
    newer = add_task(priority=3, next_run_at=NOW)
    older = add_task(priority=3, next_run_at=NOW - timedelta(minutes=1))
    run_tick(now=NOW, batch_size=1)
    assert jobs_of(older) and not jobs_of(newer)


def test_backlog_larger_than_the_batch_drains_over_several_ticks(add_task):
    tasks = [add_task(cron=None, run_at=NOW, next_run_at=NOW) for _ in range(25)]
    selected = [run_tick(now=NOW, batch_size=10).selected for _ in range(4)]
    assert selected == [10, 10, 5, 0]
    assert Job.objects.filter(task__in=tasks).count() == 25


def test_bucket_ranges_limit_the_tick_to_owned_buckets(add_task):
    mine = add_task(bucket=10)
    theirs = add_task(bucket=600)
    run_tick(now=NOW, bucket_ranges=[(0, 511)])
    assert jobs_of(mine) and not jobs_of(theirs)


def test_hashed_cron_runs_at_its_stable_minute(add_task):
    task = add_task(cron="H * * * *", next_run_at=NOW.replace(minute=0, second=0))
    run_tick(now=NOW)
    first = reload(task).next_run_at
    run_tick(now=first)
    second = reload(task).next_run_at
    assert first.minute == second.minute and second - first == timedelta(hours=1)


def count_statements(add_task, task_count: int) -> int:
    for _ in range(task_count):
        add_task(cron="*/5 * * * *", next_run_at=NOW - timedelta(seconds=30))
    with CaptureQueriesContext(connection) as queries:
        result = run_tick(now=NOW, batch_size=1000)
    assert result.selected == task_count
    return len(queries.captured_queries)


def test_statement_count_does_not_grow_with_the_number_of_tasks(add_task, django_db_blocker):
    small = count_statements(add_task, 10)
    Job.objects.all().delete()
    Task.objects.all().delete()
    large = count_statements(add_task, 1000)
    assert small == large <= 6
