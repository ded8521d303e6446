"""Every change to a flow through the API is an audit entry of the change's transaction."""

import pytest

from audit.models import AuditEntry

pytestmark = pytest.mark.django_db


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def test_put_records_the_settings_made_then_only_what_changed(api, tenant):
    api.put("/v1/flows/crm", {"parallelism": 2}, format="json")
    api.put("/v1/flows/crm", {"parallelism": 3}, format="json")
    made, changed = entries("flow.put")
    assert made.target == "crm" and made.tenant_id == tenant.id
    assert made.changes["created"] is True and made.changes["parallelism"] == 2
    assert changed.changes == {"created": False, "parallelism": {"old": 2, "new": 3}}


def test_a_put_that_changes_nothing_records_nothing(api):
    api.put("/v1/flows/crm", {"rate": 4}, format="json")
    api.put("/v1/flows/crm", {"rate": 4}, format="json")
    assert len(entries("flow.put")) == 1


def test_pause_and_resume_are_recorded_once_each(api):
    api.put("/v1/flows/crm", {}, format="json")
    api.post("/v1/flows/crm/pause")
    api.post("/v1/flows/crm/pause")
    api.post("/v1/flows/crm/resume")
    assert [e.changes["paused"] for e in entries("flow.pause")] == [{"old": False, "new": True}]
    assert [e.changes["paused"] for e in entries("flow.resume")] == [{"old": True, "new": False}]


def test_delete_records_the_settings_it_removed(api):
    api.put("/v1/flows/crm", {"rate": 9, "period_seconds": 60}, format="json")
    api.delete("/v1/flows/crm")
    (entry,) = entries("flow.delete")
    assert entry.changes["rate"] == 9 and entry.changes["released"] == 0


def test_the_actor_is_the_tokens_id(api):
    api.put("/v1/flows/crm", {}, format="json")
    (entry,) = entries("flow.put")
    assert entry.actor != "token:unknown"
