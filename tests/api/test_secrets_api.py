"""Tenant secrets: stored encrypted, listed by name, never returned; the signing secret."""

from datetime import UTC, datetime, timedelta

from tasks.models import TenantSecret
from tasks.tenants import tenant_rotate_signing_secret


def test_put_creates_a_secret_and_get_lists_names_only(api):
    assert (
        api.put(
            "/v1/secrets/crm",
            {"value": "Bearer abc", "allowed_hosts": ["93.184.216.34"]},
            format="json",
        ).status_code
        == 201
    )
    listed = api.get("/v1/secrets").json()["results"]
    assert [item["name"] for item in listed] == ["crm"]
    assert "Bearer abc" not in str(api.get("/v1/secrets").content)


def test_secret_is_encrypted_at_rest(api):
    api.put(
        "/v1/secrets/crm",
        {"value": "Bearer abc", "allowed_hosts": ["93.184.216.34"]},
        format="json",
    )
    assert "Bearer abc" not in TenantSecret.objects.get(name="crm").encrypted_value


def test_put_again_replaces_the_value(api):
    api.put("/v1/secrets/crm", {"value": "one", "allowed_hosts": ["93.184.216.34"]}, format="json")
    assert api.put("/v1/secrets/crm", {"value": "two"}, format="json").status_code == 200
    assert TenantSecret.objects.count() == 1


def test_delete_removes_a_secret_and_a_second_delete_is_404(api):
    api.put("/v1/secrets/crm", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json")
    assert api.delete("/v1/secrets/crm").status_code == 204
    assert api.delete("/v1/secrets/crm").status_code == 404


def test_bad_secret_name_or_value_is_400(api):
    assert api.put("/v1/secrets/bad name", {"value": "x"}, format="json").status_code == 400
    assert api.put("/v1/secrets/ok", {"value": ""}, format="json").status_code == 400
    assert api.put("/v1/secrets/ok", {"value": "a\nb"}, format="json").status_code == 400


def test_secrets_are_per_tenant(api, other_api):
    api.put("/v1/secrets/crm", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json")
    assert other_api.get("/v1/secrets").json()["results"] == []
    assert other_api.delete("/v1/secrets/crm").status_code == 404


def test_signing_secret_is_the_tenants_own(api, tenant):
    assert api.get("/v1/signing-secret").json() == {
        "signing_secret": tenant.signing_secret,
        "previous_secret_signs_until": None,
    }


def test_after_a_rotation_the_new_secret_is_served_with_the_old_ones_end(api, tenant):
    fresh = tenant_rotate_signing_secret(actor="tests", tenant=tenant)
    served = api.get("/v1/signing-secret").json()
    assert served["signing_secret"] == fresh
    until = datetime.fromisoformat(served["previous_secret_signs_until"])
    assert timedelta(hours=23) < until - datetime.now(UTC) <= timedelta(hours=24)
