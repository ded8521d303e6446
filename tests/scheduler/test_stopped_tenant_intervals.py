"""A stopped tenant's interval tasks on resume: `run_all` replays at most the cap of the
runs missed, on the interval's grid."""

from datetime import timedelta

from jobs.models import Job
from tasks.tenants import tenant_deactivate, tenant_reactivate
from tests.scheduler.conftest import NOW
from tests.scheduler.test_stopped_tenant import ticks_until_idle

GRID = NOW.replace(second=0)


def test_resume_replays_at_most_the_cap_of_an_interval_tasks_missed_runs(
    add_task, tenant, settings
):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 5
    due = GRID - timedelta(hours=3)
    task = add_task(cron=None, interval_seconds=30, next_run_at=due, misfire_policy="run_all")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert ticks_until_idle() == 5
    runs = sorted(Job.objects.filter(task=task).values_list("scheduled_at", flat=True))
    assert runs == [GRID - timedelta(seconds=30 * n) for n in range(3, -2, -1)]


def test_resume_replays_every_missed_interval_run_within_the_cap(add_task, tenant, settings):
    settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS = 10
    due = GRID - timedelta(minutes=2)
    add_task(cron=None, interval_seconds=60, next_run_at=due, misfire_policy="run_all")
    tenant_deactivate(actor="tests", tenant=tenant)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)
    assert ticks_until_idle() == 3  # minutes -2, -1 and 0
