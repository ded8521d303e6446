"""Creating and revoking a key are audited, never with the key; calls made with a key name
it as their actor."""

from tests.audit.log import client_with_jti, only_entry
from tests.conftest import cron_task
from tests.tenants.keys import create_key


def test_creating_a_key_is_an_entry_without_the_key(tenant):
    api, jti = client_with_jti(tenant)
    created = create_key(api, name="ci", scope="read", expires_at="2031-01-01T00:00:00Z")
    entry = only_entry(action="api_key.create", target=created["id"])
    assert (entry.tenant_id, entry.actor) == (tenant.id, jti)
    assert entry.changes == {
        "name": "ci",
        "scope": "read",
        "prefix": created["prefix"],
        "expires_at": "2031-01-01T00:00:00Z",
    }
    assert created["key"].split("_", 2)[2] not in str(entry.changes)


def test_revoking_a_key_is_an_entry(tenant):
    api, jti = client_with_jti(tenant)
    created = create_key(api, name="ci")
    api.delete(f"/v1/api-keys/{created['id']}")
    entry = only_entry(action="api_key.revoke", target=created["id"])
    assert entry.actor == jti
    assert entry.changes == {"name": "ci", "prefix": created["prefix"]}


def test_a_change_made_with_a_key_names_the_key_as_its_actor(write_key, write_api):
    task = write_api.post("/v1/tasks", cron_task(), format="json").json()
    assert only_entry(action="task.create", target=task["id"]).actor == (
        f"api_key:{write_key['id']}"
    )
