"""Priority 0 is granted per tenant: once withdrawn, the tenant's work runs at priority 1."""

import pytest

from jobs.models import Job
from tasks.critical_grant import critical_grant_withdraw
from tasks.models import Tenant
from tasks.tick import run_tick
from tests.conftest import PUBLIC_URL
from tests.scheduler.conftest import NOW


@pytest.fixture
def granted(tenant) -> Tenant:
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    tenant.allow_critical = True
    return tenant


def test_with_the_grant_the_tick_makes_priority_0_jobs(add_task, granted):
    task = add_task(priority=0)
    run_tick(now=NOW)
    assert Job.objects.get(task=task).priority == 0


def test_after_withdrawal_the_tick_makes_a_priority_0_tasks_jobs_at_priority_1(add_task, granted):
    task = add_task(priority=0)
    Tenant.objects.filter(id=granted.id).update(allow_critical=False)
    run_tick(now=NOW)
    assert Job.objects.get(task=task).priority == 1


def test_withdrawal_demotes_the_tenants_waiting_priority_0_jobs(make_job, granted, other_tenant):
    Tenant.objects.filter(id=other_tenant.id).update(allow_critical=True)
    statuses = ("pending", "held", "throttled")
    waiting = [make_job(PUBLIC_URL, priority=0, status=s) for s in statuses]
    done = make_job(PUBLIC_URL, priority=0, status="succeeded")
    others = make_job(PUBLIC_URL, priority=0, task_tenant=other_tenant)
    assert critical_grant_withdraw(tenant=granted) == 3
    assert [Job.objects.get(id=job.id).priority for job in waiting] == [1, 1, 1]
    assert Job.objects.get(id=done.id).priority == 0  # history as it was
    assert Job.objects.get(id=others.id).priority == 0
    assert not Tenant.objects.get(id=granted.id).allow_critical
