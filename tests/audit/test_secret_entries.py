"""Secrets are audited by name and hosts: no entry ever holds a secret's value."""

import json

import pytest

from audit.models import AuditEntry
from tests.audit.log import only_entry

# Outside a test transaction: an entry written without its change's transaction is refused
# (audit/record.py), as in production, instead of riding on the test's own.
pytestmark = pytest.mark.django_db(transaction=True)

VALUE = "Bearer s3cret-value"


def put(api, name: str, **body):
    return api.put(f"/v1/secrets/{name}", {"value": VALUE, **body}, format="json")


def all_entries_text() -> str:
    return json.dumps(list(AuditEntry.objects.values("changes", "target", "action")))


def test_a_new_secret_records_its_hosts_and_not_its_value(api):
    assert put(api, "crm", allowed_hosts=["api.example.com"]).status_code == 201
    entry = only_entry(action="secret.put")
    assert entry.target == "crm"
    assert entry.changes == {"created": True, "allowed_hosts": ["api.example.com"]}
    assert "s3cret" not in all_entries_text()


def test_a_replaced_secret_records_its_hosts_old_and_new(api):
    put(api, "crm", allowed_hosts=["a.example.com"])
    put(api, "crm", allowed_hosts=["b.example.com"])
    _, replaced = AuditEntry.objects.filter(action="secret.put").order_by("id")
    assert replaced.changes == {
        "created": False,
        "allowed_hosts": {"old": ["a.example.com"], "new": ["b.example.com"]},
    }


def test_a_replaced_value_alone_says_only_that_it_was_replaced(api):
    put(api, "crm", allowed_hosts=["a.example.com"])
    assert put(api, "crm").status_code == 200
    _, replaced = AuditEntry.objects.filter(action="secret.put").order_by("id")
    assert replaced.changes == {"created": False}


def test_a_deleted_secret_records_its_hosts(api):
    put(api, "crm", allowed_hosts=["a.example.com"])
    assert api.delete("/v1/secrets/crm").status_code == 204
    entry = only_entry(action="secret.delete")
    assert (entry.target, entry.changes) == ("crm", {"allowed_hosts": ["a.example.com"]})


def test_deleting_a_missing_secret_writes_no_entry(api):
    assert api.delete("/v1/secrets/nope").status_code == 404
    assert not AuditEntry.objects.exists()
