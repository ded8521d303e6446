"""Each bulk call is one audit entry with its filter and count, written with its last batch."""

import pytest
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from audit.models import AuditEntry
from jobs import bulk_actions
from tasks.auth import issue_token
from tasks.models import Task
from tests.api.bulk_jobs import add_job, statuses


@pytest.fixture
def task(add_task):
    return add_task()


@pytest.fixture
def token(tenant) -> str:
    return issue_token(tenant)


@pytest.fixture
def client(token) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def entries(tenant) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(tenant_id=tenant.id))


def test_a_retry_writes_one_entry_with_the_filter_and_count(client, token, tenant, task):
    add_job(task, 0), add_job(task, 1)
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    [entry] = entries(tenant)
    assert entry.action == "dlq.retry" and entry.target == ""
    assert entry.actor == str(AccessToken(token)["jti"])
    assert entry.changes == {"filter": {"task_id": str(task.id)}, "count": 2}


def test_a_cancel_writes_one_entry_with_the_filter_and_count(client, tenant, task):
    add_job(task, 0, "pending", labels={"env": "prod"})
    client.post("/v1/jobs/cancel", {"label": "env:prod"}, format="json")
    [entry] = entries(tenant)
    assert entry.action == "jobs.cancel"
    assert entry.changes == {"filter": {"label": ["env:prod"]}, "count": 1}


def test_many_batches_still_write_one_entry(client, tenant, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    for minute in range(4):  # the last batch is full: the entry comes in a batch of none
        add_job(task, minute)
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    [entry] = entries(tenant)
    assert entry.changes["count"] == 4


def test_refusals_are_recorded_beside_the_count(client, tenant, task):
    add_job(task, 0)
    Task.objects.filter(id=task.id).update(status="deleted")
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    assert entries(tenant)[0].changes["refused"] == {"task_deleted": 1}


def test_a_call_matching_nothing_still_writes_its_entry(client, tenant):
    client.post("/v1/jobs/cancel", {"error_contains": "none"}, format="json")
    [entry] = entries(tenant)
    assert entry.changes["count"] == 0


def test_a_dry_run_writes_no_entry(client, tenant, task):
    add_job(task, 0)
    client.post("/v1/dlq/retry", {"task_id": str(task.id), "dry_run": True}, format="json")
    assert entries(tenant) == []


def test_the_last_batch_and_its_entry_roll_back_together(client, tenant, task, monkeypatch):
    job = add_job(task, 0)

    def failing(*args, **kwargs):
        raise RuntimeError("the audit write failed")

    monkeypatch.setattr(bulk_actions, "record", failing)
    client.raise_request_exception = False
    response = client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    assert response.status_code == 500
    assert statuses(job) == ["dead"] and entries(tenant) == []
