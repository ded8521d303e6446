"""Tenant secrets at rest: keys of their own, a list for rotation, never derived."""

import base64
import hashlib
from io import StringIO

import pytest
from cryptography.fernet import Fernet, InvalidToken
from django.core.management import CommandError, call_command

from tasks.models import TenantSecret
from tasks.secrets import secret_put, secret_values

OLD, NEW = Fernet.generate_key().decode(), Fernet.generate_key().decode()
HOSTS = ["93.184.216.34"]


@pytest.fixture
def stored_under_old_key(tenant, settings) -> TenantSecret:
    settings.SECRETS_ENCRYPTION_KEYS = [OLD]
    secret, _ = secret_put(
        actor="tests", tenant=tenant, name="crm", value="Bearer s3cret", allowed_hosts=HOSTS
    )
    return secret


def lookup(tenant):
    return secret_values(refs={(str(tenant.id), "crm")})


def test_a_secret_is_not_readable_with_a_key_derived_from_the_django_secret_key(tenant, settings):
    secret, _ = secret_put(
        actor="tests", tenant=tenant, name="crm", value="Bearer s3cret", allowed_hosts=HOSTS
    )
    assert "s3cret" not in secret.encrypted_value
    derived = hashlib.sha256(b"tenant-secrets:" + settings.SECRET_KEY.encode()).digest()
    with pytest.raises(InvalidToken):  # how earlier versions keyed the secrets
        Fernet(base64.urlsafe_b64encode(derived)).decrypt(secret.encrypted_value.encode())


def test_rotating_the_django_secret_key_leaves_tenant_secrets_readable(tenant, settings):
    secret_put(actor="tests", tenant=tenant, name="crm", value="Bearer s3cret", allowed_hosts=HOSTS)
    settings.SECRET_KEY = "another-" + "k3y" * 20
    assert lookup(tenant).values == {(str(tenant.id), "crm"): "Bearer s3cret"}


def test_a_secret_under_an_older_key_is_read_once_a_new_key_comes_first(
    tenant, settings, stored_under_old_key
):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW, OLD]
    assert lookup(tenant).values == {(str(tenant.id), "crm"): "Bearer s3cret"}


def test_new_secrets_are_encrypted_with_the_first_key(tenant, settings):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW, OLD]
    secret, _ = secret_put(
        actor="tests", tenant=tenant, name="crm", value="Bearer s3cret", allowed_hosts=HOSTS
    )
    assert Fernet(NEW).decrypt(secret.encrypted_value.encode()) == b"Bearer s3cret"


def test_rotate_secrets_reencrypts_every_secret_with_the_first_key(
    tenant, settings, stored_under_old_key
):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW, OLD]
    out = StringIO()
    call_command("rotate_secrets", stdout=out)
    assert "rotated 1 secrets" in out.getvalue()
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]  # the old key retired
    assert lookup(tenant).values == {(str(tenant.id), "crm"): "Bearer s3cret"}


def test_a_secret_no_key_decrypts_is_reported_undecryptable_not_missing(
    tenant, settings, stored_under_old_key, caplog
):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]
    found = lookup(tenant)
    assert found.values == {}
    assert found.undecryptable == {(str(tenant.id), "crm")}
    assert any(r.levelname == "ERROR" and "crm" in r.getMessage() for r in caplog.records)


def test_rotate_secrets_fails_loudly_on_a_secret_no_key_decrypts(
    tenant, settings, stored_under_old_key
):
    settings.SECRETS_ENCRYPTION_KEYS = [NEW]
    with pytest.raises(CommandError, match="1 secrets could not be decrypted"):
        call_command("rotate_secrets", stdout=StringIO())
    stored = TenantSecret.objects.get(id=stored_under_old_key.id)
    assert stored.encrypted_value == stored_under_old_key.encrypted_value
