"""`record` writes its entry without the ORM's insert compiler (scheduler_site/plain_inserts):
the entry reads back as it was made, with the id the database gave it."""

from __future__ import annotations

import uuid

import pytest
from django.db import transaction

from audit.models import AuditEntry
from audit.record import record

pytestmark = pytest.mark.django_db


def recorded(**fields) -> AuditEntry:
    with transaction.atomic():
        return record(actor="tests", action="task.update", **fields)


def test_an_entry_reads_back_as_it_was_made():
    tenant_id = uuid.uuid4()
    changes = {"cron": {"from": "0 3 * * *", "to": "0 4 * * *"}, "labels": {"to": {"é": "ü"}}}
    entry = recorded(tenant_id=tenant_id, target="a-task", changes=changes)
    stored = AuditEntry.objects.get(id=entry.id)
    assert (stored.tenant_id, stored.target, stored.changes) == (tenant_id, "a-task", changes)
    assert stored.at == entry.at and stored.actor == "tests"


def test_each_entry_gets_the_next_id():
    first, second = recorded(tenant_id=None), recorded(tenant_id=None)
    assert second.id > first.id
    assert AuditEntry.objects.filter(id__in=[first.id, second.id]).count() == 2


def test_an_entry_without_changes_stores_an_empty_object():
    entry = recorded(tenant_id=None)
    assert AuditEntry.objects.get(id=entry.id).changes == {}
