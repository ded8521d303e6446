"""A job retried or cancelled through the API is one entry naming the job and its task."""

import pytest

from tests.audit.log import client_with_jti, entries, only_entry
from tests.conftest import PUBLIC_URL

# Outside a test transaction: an entry written without its change's transaction is refused
# (audit/record.py), as in production, instead of riding on the test's own.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_retry_records_the_job_its_task_and_the_status_it_left(tenant, make_job):
    api, jti = client_with_jti(tenant)
    dead = make_job(PUBLIC_URL, status="dead", attempt=5, max_attempts=5)
    assert api.post(f"/v1/jobs/{dead.id}/retry").status_code == 202
    entry = only_entry(action="job.retry")
    assert (entry.target, entry.actor, entry.tenant_id) == (str(dead.id), jti, tenant.id)
    assert entry.changes == {
        "task_id": str(dead.task_id),
        "status": {"old": "dead", "new": "pending"},
    }


def test_a_cancel_records_the_job(api, make_job):
    waiting = make_job(PUBLIC_URL)
    assert api.post(f"/v1/jobs/{waiting.id}/cancel").status_code == 202
    entry = only_entry(action="job.cancel")
    assert entry.changes["status"] == {"old": "pending", "new": "cancelled"}


def test_a_refused_retry_writes_no_entry(api, make_job):
    pending = make_job(PUBLIC_URL)
    assert api.post(f"/v1/jobs/{pending.id}/retry").status_code == 409
    assert entries() == []
