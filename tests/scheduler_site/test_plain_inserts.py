"""Rows written without the ORM's insert compiler (scheduler_site/plain_inserts.py) carry
the values the ORM would send, on either database."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection, transaction

from audit.models import AuditEntry
from scheduler_site.plain_inserts import db_values, insert_many, insert_one
from tasks.models import Task
from tasks.serializers import read_task
from tasks.services import task_prepare
from tests.conftest import cron_task

pytestmark = pytest.mark.django_db


def orm_values(obj, fields) -> list[object]:
    return [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]


def test_a_tasks_values_are_the_ones_the_orm_sends(api):
    made = cron_task(labels={"env": "prod"}, headers={"X-A": "1"}, max_runs=3, body="{}")
    task = Task.objects.get(id=api.post("/v1/tasks", made, format="json").json()["id"])
    fields = [field for field in Task._meta.concrete_fields if not getattr(field, "auto_now", 0)]
    assert db_values(task, fields) == orm_values(task, fields)


def test_an_entrys_values_are_the_ones_the_orm_sends():
    entry = AuditEntry(tenant_id=None, actor="tests", action="a", changes={"n": [1, "é"]})
    fields = AuditEntry._meta.concrete_fields[1:]  # not the auto id
    assert db_values(entry, fields) == orm_values(entry, fields)


def test_one_object_gets_the_id_the_database_gave_it():
    with transaction.atomic():
        entry = AuditEntry(actor="tests", action="a")
        insert_one(entry)
    assert AuditEntry.objects.get(id=entry.id).actor == "tests"
    assert not entry._state.adding


def test_many_objects_go_in_together():
    entries = [AuditEntry(actor="tests", action="many", target=str(n)) for n in range(700)]
    with transaction.atomic():
        insert_many(entries)
    stored = AuditEntry.objects.filter(action="many").order_by("id")
    assert [entry.target for entry in stored] == [str(n) for n in range(700)]


def test_a_prepared_tasks_values_are_the_ones_the_orm_sends(tenant):
    """Before it is saved a task holds its choices as enum members and its ids as UUIDs
    (a task read back holds text): each is sent as the ORM sends it."""
    data = read_task(cron_task(labels={"a": "b"}, overlap="skip", method="PUT"))
    task = task_prepare(tenant=tenant, data=data)
    assert type(task.status) is not str and type(task.id) is uuid.UUID
    fields = [field for field in Task._meta.concrete_fields if not getattr(field, "auto_now", 0)]
    assert db_values(task, fields) == orm_values(task, fields)
    assert [type(v) for v in db_values(task, fields)] == [type(v) for v in orm_values(task, fields)]
