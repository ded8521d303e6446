"""Bad bodies of POST /v1/api-keys are 400s naming the field; the cap is a 409."""

import pytest

from tenants.api_keys import services
from tests.tenants.keys import create_key


def refused_fields(api, body) -> dict:
    response = api.post("/v1/api-keys", body, format="json")
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]


@pytest.mark.parametrize("scope", ["admin", "READ", "", None, 1])
def test_a_scope_other_than_read_or_write_is_400(api, scope):
    assert "scope" in refused_fields(api, {"name": "x", "scope": scope})


def test_a_missing_name_or_scope_is_400(api):
    assert set(refused_fields(api, {})) == {"name", "scope"}


def test_a_blank_or_overlong_name_is_400(api):
    assert "name" in refused_fields(api, {"name": " ", "scope": "read"})
    assert "name" in refused_fields(api, {"name": "x" * 201, "scope": "read"})


def test_an_unknown_field_is_400(api):
    fields = refused_fields(api, {"name": "x", "scope": "read", "scopes": ["read"]})
    assert fields == {"scopes": "unknown field"}


def test_a_read_only_field_is_400_as_read_only(api):
    assert refused_fields(api, {"name": "x", "scope": "read", "key": "acs_x"}) == {
        "key": "read-only"
    }


@pytest.mark.parametrize(
    "expires_at",
    ["2020-01-01T00:00:00Z", "2031-01-01T00:00:00", "soon", "9999-12-31T23:59:59-05:00"],
)
def test_an_expiry_in_the_past_naive_or_out_of_range_is_400(api, expires_at):
    assert "expires_at" in refused_fields(
        api, {"name": "x", "scope": "read", "expires_at": expires_at}
    )


def test_a_body_that_is_not_an_object_is_400(api):
    assert api.post("/v1/api-keys", [1], format="json").status_code == 400


def test_a_key_past_the_cap_is_409(api, monkeypatch):
    monkeypatch.setattr(services, "MAX_LIVE_KEYS", 2)
    first = create_key(api)
    create_key(api)
    response = api.post("/v1/api-keys", {"name": "x", "scope": "read"}, format="json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_api_keys"
    api.delete(f"/v1/api-keys/{first['id']}")
    assert (
        api.post("/v1/api-keys", {"name": "x", "scope": "read"}, format="json").status_code == 201
    )
