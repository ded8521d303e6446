"""A key authenticates while it lives: revoked, expired, unknown, forged or a stopped
tenant's key is a 401; last_used_at follows its use, written at most once a minute."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tasks.models import Tenant
from tenants.models import ApiKey
from tests.tenants.keys import client_with_key


def test_a_revoked_key_is_401_on_the_next_request(api, write_key, write_api):
    assert write_api.get("/v1/tasks").status_code == 200
    assert api.delete(f"/v1/api-keys/{write_key['id']}").status_code == 204
    response = write_api.get("/v1/tasks")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "api_key_revoked"


def test_an_expired_key_is_401(write_key, write_api):
    ApiKey.objects.filter(id=write_key["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    response = write_api.get("/v1/tasks")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "api_key_expired"


def test_a_key_before_its_expiry_is_200(api):
    from tests.tenants.keys import create_key

    soon = (timezone.now() + timedelta(minutes=5)).isoformat()
    key = create_key(api, expires_at=soon)["key"]
    assert client_with_key(key).get("/v1/tasks").status_code == 200


def test_a_stopped_tenants_key_is_401(tenant, write_api):
    Tenant.objects.filter(id=tenant.id).update(is_active=False)
    response = write_api.get("/v1/tasks")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "tenant_stopped"


def test_a_key_with_a_wrong_secret_is_401(write_key):
    forged = write_key["key"][:-4] + ("AAAA" if not write_key["key"].endswith("AAAA") else "BBBB")
    response = client_with_key(forged).get("/v1/tasks")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "api_key_unknown"


def test_an_unknown_or_malformed_key_is_401(db):
    for raw in ["acs_abcdefgh_" + "x" * 43, "acs_", "acs_short_x", "acs_ABCDEFGH_x"]:
        assert client_with_key(raw).get("/v1/tasks").status_code == 401, raw


def test_a_refused_key_answers_with_a_bearer_challenge(db):
    response = client_with_key("acs_abcdefgh_nope").get("/v1/tasks")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_jwt_still_authenticates_beside_keys(api, write_key):
    assert api.get("/v1/tasks").status_code == 200


def test_a_first_use_sets_last_used_at(write_key, write_api):
    assert ApiKey.objects.get(id=write_key["id"]).last_used_at is None
    before = timezone.now()
    write_api.get("/v1/tasks")
    assert ApiKey.objects.get(id=write_key["id"]).last_used_at >= before
    assert write_api.get(f"/v1/api-keys/{write_key['id']}").json()["last_used_at"] is not None


def test_uses_within_a_minute_write_last_used_at_once(write_key, write_api):
    write_api.get("/v1/tasks")
    with CaptureQueriesContext(connection) as queries:
        write_api.get("/v1/tasks")
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]


def test_a_use_a_minute_later_moves_last_used_at(write_key, write_api):
    long_ago = timezone.now() - timedelta(minutes=2)
    ApiKey.objects.filter(id=write_key["id"]).update(last_used_at=long_ago)
    write_api.get("/v1/tasks")
    assert ApiKey.objects.get(id=write_key["id"]).last_used_at > long_ago
