"""Callbacks in flight per tenant: their own budget of the tenant's concurrency limit,
counted apart from the runs' (jobs/queue/claim.py _choose, jobs/queue/sql.py TENANT_BUDGETS)."""

import pytest

from jobs import queue
from jobs.models import CALLBACK_PRIORITY, Job, JobStatus
from tests.executor.callback_jobs import make_callback

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC = "https://93.184.216.34"


def claim(worker: str) -> list:
    batch = queue.claim_jobs(
        worker_id=worker, critical_limit=10, normal_limit=10, lookahead_seconds=0
    )
    return batch.jobs


def limited_to_one(tenant) -> None:
    tenant.concurrency_limit = 1
    tenant.save(update_fields=["concurrency_limit"])


def running(tenant, *, callbacks: bool) -> int:
    jobs = Job.objects.filter(status=JobStatus.RUNNING, tenant_id=tenant.id)
    if callbacks:
        return jobs.filter(priority=CALLBACK_PRIORITY).count()
    return jobs.exclude(priority=CALLBACK_PRIORITY).count()


def test_a_tenant_never_has_more_callbacks_running_than_its_concurrency_limit(make_job, tenant):
    limited_to_one(tenant)
    origin = make_job(f"{PUBLIC}/hook", status=JobStatus.SUCCEEDED, attempt=1)
    for _ in range(5):
        make_callback(origin, f"{PUBLIC}/cb", event="success")
    for round_ in range(5):
        claim(f"w{round_}")
    assert running(tenant, callbacks=True) == 1


def test_a_tenants_run_still_starts_while_its_callback_is_in_flight(make_job, tenant):
    limited_to_one(tenant)
    origin = make_job(f"{PUBLIC}/hook", status=JobStatus.SUCCEEDED, attempt=1)
    make_callback(origin, f"{PUBLIC}/cb", event="success")
    (callback,) = claim("w1")
    assert callback.priority == CALLBACK_PRIORITY
    make_job(f"{PUBLIC}/next")
    (run,) = claim("w2")
    assert run.priority != CALLBACK_PRIORITY and running(tenant, callbacks=False) == 1
