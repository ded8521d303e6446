"""A job's `dead_tenant` is its tenant while it is one of the tenant's dead runs, NULL in
every other state and for a dead callback: the DLQ's index holds exactly the DLQ. On both
backends."""

import pytest

from jobs.dead_letters import tenant_dead_runs
from jobs.models import CALLBACK_PRIORITY, Job
from tests.conftest import PUBLIC_URL


def dead_tenant_of(job: Job):
    return Job.objects.values_list("dead_tenant", flat=True).get(id=job.id)


def test_a_dead_run_is_its_tenants(make_job, tenant):
    job = make_job(PUBLIC_URL)
    Job.objects.filter(id=job.id).update(status="dead", priority=9)
    assert dead_tenant_of(job) == tenant.id


@pytest.mark.parametrize(
    "status", ["pending", "held", "running", "succeeded", "cancelled", "waiting", "throttled"]
)
def test_a_job_in_any_other_state_is_nobodys(status, make_job):
    job = make_job(PUBLIC_URL)
    Job.objects.filter(id=job.id).update(status=status)
    assert dead_tenant_of(job) is None


def test_a_dead_callback_is_nobodys(make_job):
    job = make_job(PUBLIC_URL)
    Job.objects.filter(id=job.id).update(status="dead", priority=CALLBACK_PRIORITY)
    assert dead_tenant_of(job) is None


def test_a_retried_job_leaves_the_dlq(make_job, tenant):
    job = make_job(PUBLIC_URL)
    Job.objects.filter(id=job.id).update(status="dead")
    Job.objects.filter(id=job.id).update(status="pending")
    assert not tenant_dead_runs(tenant.id).exists()


def test_the_tenants_dead_runs_are_its_dead_rows_of_priorities_0_to_9(
    make_job, tenant, other_tenant
):
    mine = [make_job(PUBLIC_URL, priority=n) for n in range(10)]
    theirs = make_job(PUBLIC_URL, task_tenant=other_tenant)
    callback = make_job(PUBLIC_URL)
    Job.objects.filter(id__in=[j.id for j in mine] + [theirs.id]).update(status="dead")
    Job.objects.filter(id=callback.id).update(status="dead", priority=CALLBACK_PRIORITY)
    found = set(tenant_dead_runs(tenant.id).values_list("id", flat=True))
    assert found == {j.id for j in mine}
