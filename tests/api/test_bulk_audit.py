"""Each batch of a bulk call is one audit entry with its filter and count, in its transaction."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from audit.models import AuditEntry
from jobs import bulk_actions
from jobs.bulk_actions import BATCH_SIZE
from jobs.models import Job
from tasks.auth import issue_token
from tasks.models import Task
from tests.api.bulk_jobs import add_job, statuses

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


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
    assert entry.changes == {
        "filter": {"task_id": str(task.id)},
        "count": 2,
        "operation": entry.changes["operation"],
        "batch": 1,
    }


def test_a_cancel_writes_one_entry_with_the_filter_and_count(client, tenant, task):
    add_job(task, 0, "pending", labels={"env": "prod"})
    client.post("/v1/jobs/cancel", {"label": "env:prod"}, format="json")
    [entry] = entries(tenant)
    assert entry.action == "jobs.cancel"
    assert (entry.changes["filter"], entry.changes["count"]) == ({"label": ["env:prod"]}, 1)


def test_each_batch_writes_its_own_entry_with_a_shared_operation(client, tenant, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    for minute in range(5):
        add_job(task, minute)
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    changes = sorted((e.changes for e in entries(tenant)), key=lambda c: c["batch"])
    assert [(c["batch"], c["count"]) for c in changes] == [(1, 2), (2, 2), (3, 1)]
    assert len({c["operation"] for c in changes}) == 1


def test_a_full_last_batch_writes_no_empty_entry_after_it(client, tenant, task, monkeypatch):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    for minute in range(4):
        add_job(task, minute)
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    assert sorted(e.changes["count"] for e in entries(tenant)) == [2, 2]


def test_two_calls_have_different_operations(client, tenant, task):
    add_job(task, 0)
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    assert len({e.changes["operation"] for e in entries(tenant)}) == 2


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


@pytest.mark.django_db(transaction=True)
def test_a_retry_failing_in_its_second_batch_keeps_the_first_batch_entry(tenant, add_task):
    task = add_task()
    ids = sorted(uuid.uuid4() for _ in range(BATCH_SIZE + 1))
    Job.objects.bulk_create(
        Job(
            id=job_id,
            tenant_id=tenant.id,
            task_id=task.id,
            scheduled_at=T0 + timedelta(minutes=n),
            next_attempt_at=T0,
            status="dead",
            attempt=1,
            max_attempts=1,
            finished_at=T0,
        )
        for n, job_id in enumerate(ids)
    )
    # the second batch holds only the last job in the database's own id order
    jobs = Job.objects.filter(tenant_id=tenant.id)
    last_id = jobs.order_by("-id").values_list("id", flat=True)[0]
    last = last_id.hex if connection.vendor != "mysql" else str(last_id)
    with connection.cursor() as cursor:
        if connection.vendor == "mysql":
            cursor.execute(
                "CREATE TRIGGER rev2_refuse BEFORE UPDATE ON jobs FOR EACH ROW "
                f"IF NEW.id = '{last}' AND NEW.status = 'pending' THEN "
                "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF"
            )
        else:
            cursor.execute(
                "CREATE TRIGGER rev2_refuse BEFORE UPDATE ON jobs FOR EACH ROW "
                f"WHEN NEW.id = '{last}' AND NEW.status = 'pending' "
                "BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
    try:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(tenant)}")
        client.raise_request_exception = False
        response = client.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
        assert response.status_code == 500, response.content
        retried = Job.objects.filter(tenant_id=tenant.id, status="pending").count()
        entries = AuditEntry.objects.filter(tenant_id=tenant.id, action="dlq.retry").count()
        assert (retried, entries) == (BATCH_SIZE, 1)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS rev2_refuse")
