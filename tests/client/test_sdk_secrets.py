"""The SDK's secrets and signing secret against a real API."""

import pytest
from atcron import ApiError, Secret

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stored_secret_is_listed_by_name_and_hosts_only(sdk):
    stored = sdk.secrets.put("crm", "Bearer s3cret", allowed_hosts=["api.example.com"])
    assert isinstance(stored, Secret) and stored.allowed_hosts == ["api.example.com"]
    listed = list(sdk.secrets.list())
    assert [(s.name, s.allowed_hosts) for s in listed] == [("crm", ["api.example.com"])]
    assert "s3cret" not in str(listed[0].raw)


def test_a_replaced_secret_keeps_its_hosts(sdk):
    sdk.secrets.put("crm", "Bearer one", allowed_hosts=["api.example.com"])
    assert sdk.secrets.put("crm", "Bearer two").allowed_hosts == ["api.example.com"]


def test_a_deleted_secret_is_gone(sdk):
    sdk.secrets.put("crm", "Bearer one", allowed_hosts=["api.example.com"])
    sdk.secrets.delete("crm")
    assert list(sdk.secrets.list()) == []
    with pytest.raises(ApiError) as gone:
        sdk.secrets.delete("crm")
    assert gone.value.status == 404


def test_the_signing_secret_is_the_tenants(sdk, tenant):
    found = sdk.signing_secret.get()
    assert found.signing_secret == tenant.signing_secret
    assert found.signing_secret.startswith("whsec_")
    assert found.previous_secret_signs_until is None
