"""Tenant secrets: stored encrypted, listed by name, never returned."""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import IntegrityError, transaction

from scheduler_site.errors import NotFound, ValidationFailed
from tasks.models import Tenant, TenantSecret
from tasks.rules import SECRET_NAME


class SecretUnavailable(Exception):
    """A task names a secret that does not exist (or cannot be decrypted)."""


@lru_cache(maxsize=4)
def _fernet(key: str, fallback: str) -> Fernet:
    if key:
        return Fernet(key.encode())
    derived = hashlib.sha256(b"tenant-secrets:" + fallback.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def cipher() -> Fernet:
    return _fernet(settings.SECRETS_ENCRYPTION_KEY, settings.SECRET_KEY)


def _check(name: str, value: object) -> str:
    if not SECRET_NAME.match(name):
        raise ValidationFailed("name is not valid", fields={"name": "letters, digits, _ . -"})
    if not isinstance(value, str) or not value:
        raise ValidationFailed("value is required", fields={"value": "a non-empty string"})
    if len(value.encode()) > settings.SECRET_VALUE_MAX_BYTES or any(c in value for c in "\r\n\0"):
        raise ValidationFailed(
            "value is not valid",
            fields={"value": f"at most {settings.SECRET_VALUE_MAX_BYTES} bytes, no line breaks"},
        )
    return value


def secret_put(*, tenant: Tenant, name: str, value: object) -> tuple[TenantSecret, bool]:
    """Create or replace a secret; returns it and whether it was created."""
    encrypted = cipher().encrypt(_check(name, value).encode()).decode()
    for _ in range(2):
        updated = TenantSecret.objects.filter(tenant=tenant, name=name).update(
            encrypted_value=encrypted
        )
        if updated:
            return TenantSecret.objects.get(tenant=tenant, name=name), False
        try:
            with transaction.atomic():
                secret = TenantSecret.objects.create(
                    tenant=tenant, name=name, encrypted_value=encrypted
                )
            return secret, True
        except IntegrityError:
            continue  # created concurrently: replace it
    raise IntegrityError("could not store the secret")


def secret_delete(*, tenant: Tenant, name: str) -> None:
    deleted, _ = TenantSecret.objects.filter(tenant=tenant, name=name).delete()
    if not deleted:
        raise NotFound("secret not found")


def secret_names(*, tenant: Tenant) -> list[TenantSecret]:
    return list(TenantSecret.objects.filter(tenant=tenant).order_by("name"))


def secret_values(*, refs: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Decrypted values for (tenant id, name) pairs; missing ones are absent."""
    if not refs:
        return {}
    tenant_ids = {tenant_id for tenant_id, _ in refs}
    names = {name for _, name in refs}
    found = {}
    rows = TenantSecret.objects.filter(tenant_id__in=tenant_ids, name__in=names)
    for secret in rows.values_list("tenant_id", "name", "encrypted_value"):
        key = (str(secret[0]), secret[1])
        if key in refs:
            try:
                found[key] = cipher().decrypt(secret[2].encode()).decode()
            except InvalidToken:
                continue
    return found
