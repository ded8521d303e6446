"""POST /v1/api-keys: the key shown once, only its hash stored."""

from django.db import connection

from tenants.api_keys.key_format import key_hash
from tenants.models import ApiKey
from tests.tenants.keys import client_with_key, create_key


def test_a_created_key_answers_with_its_fields_and_the_key(api):
    created = create_key(api, name="ci", scope="read", expires_at="2031-01-01T00:00:00Z")
    assert set(created) == {"id", "name", "scope", "prefix", "key", "created_at", "expires_at"}
    assert (created["name"], created["scope"]) == ("ci", "read")
    assert created["expires_at"] == "2031-01-01T00:00:00Z"
    assert created["key"].startswith(created["prefix"] + "_")
    assert created["prefix"].startswith("acs_") and len(created["prefix"]) == 12


def test_a_new_key_authenticates_as_its_tenant(api, tenant):
    key = create_key(api)["key"]
    assert client_with_key(key).get("/v1/tenant").json()["id"] == str(tenant.id)


def test_the_database_holds_the_keys_hash_and_never_the_key(api):
    created = create_key(api)
    secret = created["key"].split("_", 2)[2]
    stored = ApiKey.objects.get(id=created["id"])
    assert stored.key_hash == key_hash(created["key"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM api_keys")
        dumped = repr(cursor.fetchall())
    assert created["key"] not in dumped and secret not in dumped


def test_the_key_is_not_shown_again_by_any_read(api):
    created = create_key(api)
    listed = api.get("/v1/api-keys").content.decode()
    one = api.get(f"/v1/api-keys/{created['id']}").content.decode()
    secret = created["key"].split("_", 2)[2]
    assert secret not in listed and secret not in one
    assert "key" not in api.get(f"/v1/api-keys/{created['id']}").json()


def test_two_keys_differ(api):
    assert create_key(api)["key"] != create_key(api)["key"]


def test_a_write_key_may_create_another_key(api):
    key = create_key(api, scope="write")["key"]
    assert create_key(client_with_key(key), name="second")["name"] == "second"
