"""A priority-0 job already waiting when its tenant's grant is withdrawn is not claimed as
priority 0 (a withdrawal that raced the job's making, or one made outside the console)."""

import pytest

from jobs.models import Job
from jobs.queue import claim_jobs
from tasks.models import Tenant

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_waiting_priority_0_job_without_the_grant_is_claimed_at_priority_1(
    endpoint, make_job, tenant
):
    job = make_job(endpoint.url("/ok"), priority=0)
    Tenant.objects.filter(id=tenant.id).update(allow_critical=False)
    batch = claim_jobs(worker_id="w", critical_limit=10, normal_limit=10, lookahead_seconds=1)
    assert [(claimed.id, claimed.priority) for claimed in batch.jobs] == [(str(job.id), 1)]
    assert Job.objects.get(id=job.id).priority == 1


def test_without_the_grant_it_takes_no_slot_kept_for_priority_0(endpoint, make_job, tenant):
    job = make_job(endpoint.url("/ok"), priority=0)
    Tenant.objects.filter(id=tenant.id).update(allow_critical=False)
    batch = claim_jobs(worker_id="w", critical_limit=10, normal_limit=0, lookahead_seconds=1)
    assert batch.jobs == []
    assert Job.objects.get(id=job.id).status == "pending"


def test_with_the_grant_it_is_claimed_at_priority_0(endpoint, make_job, tenant):
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    make_job(endpoint.url("/ok"), priority=0)
    batch = claim_jobs(worker_id="w", critical_limit=10, normal_limit=0, lookahead_seconds=1)
    assert [claimed.priority for claimed in batch.jobs] == [0]
