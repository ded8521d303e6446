"""A flow's call stops counting once its job is handed back unfired or its lease expired and
the reconciler returned it: a flow at parallelism 1 then lets its next job out."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.reconciler_process import ReconcilerProcess
from flows.models import Flow
from jobs.models import Job, JobStatus
from jobs.queue import claim_jobs, hand_back

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"
WORKER = "gone"


def claim():
    return claim_jobs(
        worker_id=WORKER, critical_limit=10, normal_limit=10, lookahead_seconds=5
    ).jobs


@pytest.fixture
def two_jobs(tenant, make_job) -> list[Job]:
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    Flow.objects.create(tenant=tenant, key="api", parallelism=1)
    now = datetime.now(UTC)
    return [make_job(URL, flow_key="api", due=now - timedelta(seconds=2 - i)) for i in range(2)]


def test_an_expired_call_holds_its_flow_until_the_reconciler_returns_it(two_jobs):
    (out,) = claim()
    Job.objects.filter(id=out.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))
    assert claim() == []  # still running as far as anyone knows: it counts
    ReconcilerProcess().run_once()
    assert Job.objects.get(id=out.id).status == JobStatus.PENDING
    assert len(claim()) == 1


def test_a_call_handed_back_unfired_stops_counting(two_jobs):
    (out,) = claim()
    assert claim() == []
    hand_back(worker_id=WORKER, jobs=[(out.key, out.attempt, JobStatus.PENDING)])
    (next_out,) = claim()
    assert next_out.id == out.id  # back in its place: the oldest due goes first
