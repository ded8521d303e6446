"""POST /v1/jobs/{id}/discard: a dead job leaves the DLQ for good (cancelled, audited); any
other job is a 409, an archived one a 409 that says so, another tenant's a 404."""

from datetime import UTC, datetime

import pytest

from audit.models import AuditEntry
from history.sql_store import SqlHistoryStore
from jobs.archive import job_record
from jobs.models import Job

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def add_job(tenant, make_task):
    task = make_task()

    def add(status: str) -> Job:
        return Job.objects.create(
            tenant=tenant,
            task_id=task["id"],
            scheduled_at=T0,
            next_attempt_at=T0,
            status=status,
            attempt=5,
            finished_at=None if status in ("pending", "running") else T0,
            error="HTTP 500",
        )

    return add


def test_discard_of_a_dead_job_cancels_it(api, add_job):
    job = add_job("dead")
    response = api.post(f"/v1/jobs/{job.id}/discard")
    assert response.status_code == 200
    assert response.json()["id"] == str(job.id) and response.json()["status"] == "cancelled"
    assert Job.objects.get(id=job.id).status == "cancelled"


def test_a_discarded_job_leaves_the_dlq(api, add_job):
    job = add_job("dead")
    api.post(f"/v1/jobs/{job.id}/discard")
    assert api.get("/v1/dlq").json()["results"] == []


def test_discard_is_recorded_in_the_audit_log(api, add_job, tenant):
    job = add_job("dead")
    api.post(f"/v1/jobs/{job.id}/discard")
    entry = AuditEntry.objects.get(tenant_id=tenant.id, action="job.discard")
    assert entry.target == str(job.id)
    assert entry.changes["status"] == {"old": "dead", "new": "cancelled"}


@pytest.mark.parametrize("status", ["pending", "running", "succeeded", "cancelled"])
def test_discard_of_a_job_that_is_not_dead_is_409(api, add_job, status):
    job = add_job(status)
    response = api.post(f"/v1/jobs/{job.id}/discard")
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_dead"
    assert Job.objects.get(id=job.id).status == status


def test_discard_of_an_archived_dead_job_is_409_saying_it_is_archived(api, add_job):
    job = add_job("dead")
    SqlHistoryStore().write([job_record(job)])
    Job.objects.filter(id=job.id).delete()
    response = api.post(f"/v1/jobs/{job.id}/discard")
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "archived" and "archived" in error["message"]


def test_discard_of_an_unknown_job_is_404(api):
    assert api.post("/v1/jobs/01a22754-0f49-70d3-8cd6-bf449c22e4ef/discard").status_code == 404


@pytest.mark.parametrize("archived", [False, True])
def test_discard_of_another_tenants_job_is_404_and_leaves_it_dead(other_api, add_job, archived):
    job = add_job("dead")
    if archived:
        SqlHistoryStore().write([job_record(job)])
        Job.objects.filter(id=job.id).delete()
    assert other_api.post(f"/v1/jobs/{job.id}/discard").status_code == 404
    assert archived or Job.objects.get(id=job.id).status == "dead"
