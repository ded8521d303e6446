"""A stopped tenant's tasks leave the tick's range (no NOT IN walked past on every tick),
and on resume each comes back by its misfire policy, `run_all` replaying at most
SCHEDULER_RESUME_MAX_REPLAYED_RUNS of the runs it missed."""

from datetime import timedelta
from importlib import import_module

from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job
from tasks.models import Task, Tenant
from tasks.services import task_pause, task_resume
from tasks.tenants import tenant_deactivate, tenant_reactivate
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)  # every-minute tasks run on the minute


def status_of(task) -> str:
    return Task.objects.get(id=task.id).status


def ticks_until_idle(limit: int = 50) -> int:
    """Ticks at NOW until one makes no job; returns how many jobs they made."""
    made = 0
    for _ in range(limit):
        jobs = run_tick(now=NOW).jobs
        if not jobs:
            return made
        made += jobs
    raise AssertionError(f"still making jobs after {limit} ticks")


def test_a_stopped_tenants_due_tasks_leave_the_ticks_range(add_task, tenant):
    tasks = [add_task(next_run_at=NOW - timedelta(hours=1)) for _ in range(3)]
    tenant_deactivate(actor="tests", tenant=tenant)
    assert {status_of(task) for task in tasks} == {"suspended"}
    with CaptureQueriesContext(connection) as queries:
        result = run_tick(now=NOW)
    assert result.selected == 0
    (read,) = [q["sql"] for q in queries.captured_queries if "next_run_at <=" in q["sql"]]
    assert "NOT IN" not in read.upper() and "tenant_id" not in read


def test_the_tick_goes_on_for_another_tenant(add_task, tenant, other_tenant):
    add_task(next_run_at=NOW)
    theirs = add_task(tenant=other_tenant, next_run_at=NOW)
    tenant_deactivate(actor="tests", tenant=tenant)
    assert run_tick(now=NOW).selected == 1
    assert list(Job.objects.values_list("task_id", flat=True)) == [theirs.id]


def test_resume_replays_at_most_the_cap_of_missed_runs(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    task = add_task(next_run_at=MINUTE - timedelta(hours=3), misfire_policy="run_all")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert status_of(task) == "active"
    assert ticks_until_idle() == 10
    runs = list(Job.objects.filter(task=task).values_list("scheduled_at", flat=True))
    assert sorted(runs) == [MINUTE - timedelta(minutes=n) for n in range(9, -1, -1)]


def test_resume_replays_every_missed_run_within_the_cap(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    add_task(next_run_at=MINUTE - timedelta(minutes=3), misfire_policy="run_all")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert ticks_until_idle() == 4  # minutes -3, -2, -1 and 0


def test_resume_with_run_once_makes_one_job_for_the_missed_runs(add_task, tenant):
    add_task(next_run_at=MINUTE - timedelta(hours=3), misfire_policy="run_once")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert ticks_until_idle() == 1


def test_resume_with_skip_drops_the_missed_runs(add_task, tenant):
    task = add_task(next_run_at=MINUTE - timedelta(hours=3), misfire_policy="skip")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert ticks_until_idle() == 0
    assert Task.objects.get(id=task.id).next_run_at > NOW


def test_a_paused_task_stays_paused_through_a_stop_and_resume(add_task, tenant):
    task = add_task(status="paused")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert status_of(task) == "paused"


def test_a_task_resumed_while_its_tenant_is_stopped_stays_out_of_the_range(add_task, tenant):
    task = add_task(next_run_at=NOW - timedelta(minutes=1))
    task_pause(actor="tests", tenant=tenant, task_id=task.id, expected_version=None)
    tenant_deactivate(actor="tests", tenant=tenant)
    task_resume(actor="tests", tenant=tenant, task_id=task.id, expected_version=None)
    assert status_of(task) == "suspended"
    assert run_tick(now=NOW).selected == 0


def test_the_migration_suspends_the_active_tasks_of_tenants_stopped_before_it(
    add_task, tenant, other_tenant
):
    """Tenants stopped before the tick lost its NOT IN: their tasks must leave its range."""
    migration = import_module("tasks.migrations.0007_task_status_suspended")
    stopped, running = add_task(), add_task(tenant=other_tenant)
    paused = add_task(status="paused")
    Tenant.objects.filter(id=tenant.id).update(is_active=False)  # as stopped until now
    migration.suspend_tasks_of_stopped_tenants(apps, None)
    assert [status_of(t) for t in (stopped, paused, running)] == ["suspended", "paused", "active"]
