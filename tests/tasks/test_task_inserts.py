"""Tasks written without the ORM's insert compiler (tasks/task_inserts.py) read back as
they were made: a batch's as a single create's, a single create's as its answer said, JSON
fields, times and the auto-set updated_at included."""

import pytest

from scheduler_site.errors import Conflict
from tasks.models import Task, Tenant
from tasks.serializers import read_task
from tasks.services import task_create
from tests.conftest import cron_task


def test_a_batch_task_reads_back_as_a_single_create_writes_it(api):
    fields = {"labels": {"env": "prod"}, "headers": {"X-A": "1"}, "body": '{"n": 1}'}
    single = api.post("/v1/tasks", cron_task(name="single", **fields), format="json").json()
    batch = api.post(
        "/v1/tasks/batch", {"tasks": [cron_task(name="batch", **fields)]}, format="json"
    )
    made = batch.json()["results"][0]["task"]
    one, other = Task.objects.get(id=single["id"]), Task.objects.get(id=made["id"])
    skip = {"id", "name", "bucket", "created_at", "updated_at", "next_run_at"}
    for field in Task._meta.concrete_fields:
        if field.attname not in skip:
            assert getattr(one, field.attname) == getattr(other, field.attname), field.name
    assert other.updated_at is not None and other.created_at <= other.updated_at


def test_a_single_create_reads_back_as_its_answer_said(api):
    fields = {
        "labels": {"env": "prod"},
        "headers": {"X-A": "1"},
        "body": '{"n": 1}',
        "timezone": "Europe/Paris",
        "starts_at": "2030-01-01T09:00:00Z",
        "max_runs": 3,
    }
    answer = api.post("/v1/tasks", cron_task(name="single", **fields), format="json")
    assert answer.status_code == 201, answer.content
    read = api.get(f"/v1/tasks/{answer.json()['id']}")
    assert read.json() == answer.json()
    assert read["ETag"] == answer["ETag"]


def test_a_create_for_a_tenant_stopped_since_its_copy_was_read_inserts_nothing(tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=0)  # no quota: the INSERT decides
    copy = Tenant.objects.get(id=tenant.id)  # as the token's check cached it: active
    Tenant.objects.filter(id=tenant.id).update(is_active=False)
    with pytest.raises(Conflict) as refused:
        task_create(tenant=copy, actor="tests", read_data=lambda: read_task(cron_task()))
    assert refused.value.code == "tenant_stopped"
    assert not Task.objects.filter(tenant=tenant).exists()
