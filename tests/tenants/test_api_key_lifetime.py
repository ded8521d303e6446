"""A key made with an expiring key lives no longer than it; a JWT may make any key."""

from datetime import UTC, datetime, timedelta

from tests.tenants.keys import client_with_key, create_key


def iso(at: datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


def expiring_key_client(api, days: int = 1):
    until = datetime.now(UTC).replace(microsecond=0) + timedelta(days=days)
    key = create_key(api, name="contractor", scope="write", expires_at=iso(until))
    return client_with_key(key["key"]), until


def test_a_key_made_with_an_expiring_key_without_expiry_expires_with_it(api):
    contractor, until = expiring_key_client(api)
    made = contractor.post("/v1/api-keys", {"name": "mine", "scope": "write"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["expires_at"] == iso(until)


def test_a_key_made_with_an_expiring_key_may_not_outlive_it(api):
    contractor, until = expiring_key_client(api)
    body = {"name": "forever", "scope": "write", "expires_at": iso(until + timedelta(days=1))}
    refused = contractor.post("/v1/api-keys", body, format="json")
    assert refused.status_code == 400 and "expires_at" in refused.json()["error"]["fields"]
    names = [key["name"] for key in api.get("/v1/api-keys").json()["results"]]
    assert names == ["contractor"]


def test_a_key_made_with_an_expiring_key_may_expire_sooner(api):
    contractor, until = expiring_key_client(api)
    body = {"name": "sooner", "scope": "read", "expires_at": iso(until - timedelta(hours=1))}
    assert contractor.post("/v1/api-keys", body, format="json").status_code == 201


def test_a_token_makes_a_key_that_never_expires(api):
    assert create_key(api, name="forever")["expires_at"] is None
