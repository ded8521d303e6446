"""The runs a tenant's stop costs its tasks are recorded on resume as one `tenant_stopped`
entry per task, one write per batch, and the tick does not record them again as misfires."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job
from tasks.models import SkippedRun, Task
from tasks.tenants import tenant_deactivate, tenant_reactivate
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)
THREE_HOURS_AGO = MINUTE - timedelta(hours=3)


def stop_and_resume(tenant) -> None:
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)


def entry_of(task) -> SkippedRun:
    (entry,) = SkippedRun.objects.filter(task_id=task.id)
    return entry


def test_skip_records_every_missed_run_and_the_tick_adds_no_misfire(add_task, tenant):
    task = add_task(next_run_at=THREE_HOURS_AGO, misfire_policy="skip")
    stop_and_resume(tenant)
    run_tick(now=NOW)
    entry = entry_of(task)
    assert (entry.reason, entry.count) == ("tenant_stopped", 181)  # minutes -180 to 0
    assert (entry.first_scheduled_at, entry.last_scheduled_at) == (THREE_HOURS_AGO, MINUTE)
    assert Task.objects.get(id=task.id).skipped_runs == 181


def test_run_once_makes_the_latest_missed_run_and_records_the_others(add_task, tenant):
    task = add_task(next_run_at=THREE_HOURS_AGO, misfire_policy="run_once")
    stop_and_resume(tenant)
    run_tick(now=NOW)
    assert list(Job.objects.filter(task=task).values_list("scheduled_at", flat=True)) == [MINUTE]
    entry = entry_of(task)
    assert (entry.reason, entry.count, entry.last_scheduled_at) == (
        "tenant_stopped", 180, MINUTE - timedelta(minutes=1),
    )  # fmt: skip


def test_run_all_records_the_runs_beyond_the_replay_cap(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    task = add_task(next_run_at=THREE_HOURS_AGO, misfire_policy="run_all")
    stop_and_resume(tenant)
    entry = entry_of(task)
    assert (entry.count, entry.last_scheduled_at) == (171, MINUTE - timedelta(minutes=10))


def test_a_task_that_missed_nothing_records_nothing(add_task, tenant):
    add_task(next_run_at=NOW + timedelta(minutes=1), misfire_policy="skip")
    stop_and_resume(tenant)
    assert not SkippedRun.objects.exists()


def test_the_entries_of_a_batch_are_one_insert(add_task, tenant):
    for _ in range(50):
        add_task(next_run_at=THREE_HOURS_AGO, misfire_policy="skip")
    tenant_deactivate(actor="tests", tenant=tenant)
    with CaptureQueriesContext(connection) as queries:
        tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    writes = [q for q in queries.captured_queries if "INSERT INTO skipped_runs" in q["sql"]]
    assert len(writes) == 1 and SkippedRun.objects.count() == 50


def test_an_interval_task_with_run_all_records_the_runs_beyond_the_cap(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    task = add_task(
        cron=None, interval_seconds=90, starts_at=THREE_HOURS_AGO, next_run_at=THREE_HOURS_AGO,
        misfire_policy="run_all",
    )  # fmt: skip
    stop_and_resume(tenant)
    entry = entry_of(task)
    assert entry.count == 121 - 10  # runs every 90 s over three hours, NOW's minute included
    resumed = Task.objects.get(id=task.id).next_run_at
    assert resumed == entry.last_scheduled_at + timedelta(seconds=90)
    assert resumed == THREE_HOURS_AGO + timedelta(seconds=90 * 111)


def test_a_task_whose_window_ended_while_stopped_is_completed_at_the_resume(add_task, tenant):
    task = add_task(
        next_run_at=THREE_HOURS_AGO, misfire_policy="skip", ends_at=MINUTE - timedelta(hours=1)
    )
    stop_and_resume(tenant)
    stored = Task.objects.get(id=task.id)
    assert (stored.status, stored.next_run_at) == ("completed", None)


def test_run_all_replays_the_cap_before_the_window_ended(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    ends_at = MINUTE - timedelta(minutes=30)
    task = add_task(next_run_at=MINUTE - timedelta(minutes=60), ends_at=ends_at)
    stop_and_resume(tenant)
    for _ in range(15):
        run_tick(now=NOW)
    made = Job.objects.filter(task=task).order_by("scheduled_at")
    assert [job.scheduled_at for job in made] == [
        ends_at - timedelta(minutes=n) for n in range(10, 0, -1)
    ]
    assert entry_of(task).count == 20
