"""The task body is built directly (tasks/serializers.py): it must stay what DRF's generic
serializer would write for the same task."""

from datetime import UTC, datetime

import pytest
from rest_framework import serializers

from tasks.models import Task
from tasks.serializers import TaskOutput
from tests.conftest import cron_task


def generic(task: Task) -> dict:
    return serializers.ModelSerializer.to_representation(TaskOutput(), task)


@pytest.mark.django_db
def test_a_one_off_task_reads_as_the_generic_serializer_writes_it(api):
    body = cron_task(name="once", run_at="2030-01-01T09:00:00.123456+02:00")
    del body["cron"]
    created = api.post("/v1/tasks", body, format="json").json()
    task = Task.objects.get(id=created["id"])
    assert TaskOutput(task).data == generic(task)
    assert created == dict(generic(task))


@pytest.mark.django_db
def test_a_cron_task_with_every_field_set_reads_the_same(api):
    api.put("/v1/secrets/token", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json")
    body = cron_task(
        headers={"X-Team": "ops"},
        body='{"a": 1}',
        secret_ref="token",
        priority=2,
        misfire_policy="skip",
    )
    created = api.post("/v1/tasks", body, format="json").json()
    task = Task.objects.get(id=created["id"])
    task.next_run_at = datetime(2030, 5, 1, 7, 30, tzinfo=UTC)
    assert TaskOutput(task).data == generic(task)
