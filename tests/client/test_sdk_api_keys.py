"""The SDK's API keys against a real API: made, used as the bearer, listed, revoked."""

from datetime import UTC, datetime, timedelta

import pytest
from atcron import ApiError, ApiKey, Client

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_new_key_is_shown_once_and_authenticates(sdk, base_url):
    made = sdk.api_keys.create("deploy", "write")
    assert isinstance(made, ApiKey) and made.key and made.key.startswith("acs_")
    with Client(base_url, made.key) as by_key:
        assert list(by_key.tasks.list()) == []
    listed = {k.id: (k.name, k.scope, k.key) for k in sdk.api_keys.list()}
    assert listed[made.id] == ("deploy", "write", None)


def test_a_key_may_expire(sdk):
    until = datetime.now(UTC).replace(microsecond=0) + timedelta(days=30)
    assert sdk.api_keys.create("ci", "read", expires_at=until).expires_at == until


def test_a_read_key_cannot_write(sdk, base_url):
    made = sdk.api_keys.create("dashboards", "read")
    with Client(base_url, made.key) as reader, pytest.raises(ApiError) as refused:
        reader.secrets.put("crm", "Bearer x", allowed_hosts=["api.example.com"])
    assert refused.value.status == 403


def test_a_revoked_key_is_refused(sdk, base_url):
    made = sdk.api_keys.create("old", "write")
    sdk.api_keys.revoke(made.id)
    with Client(base_url, made.key) as revoked, pytest.raises(ApiError) as refused:
        list(revoked.tasks.list())
    assert refused.value.status == 401
