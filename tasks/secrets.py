"""Tenant secrets: stored encrypted, listed by name, never returned."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.db import IntegrityError, transaction

from audit.changes import field_changes
from audit.record import record
from scheduler_site.errors import NotFound, ValidationFailed
from tasks.models import Tenant, TenantSecret
from tasks.quotas import check_secret_quota
from tasks.rules import CONTROL_CHARACTERS, SECRET_NAME
from tasks.secret_hosts import checked_allowed_hosts

logger = logging.getLogger("tasks.secrets")
SecretRef = tuple[str, str]  # (tenant id, secret name)


@lru_cache(maxsize=4)
def _cipher(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(key.encode()) for key in keys])


def cipher() -> MultiFernet:
    """Encrypts with the first of SECRETS_ENCRYPTION_KEYS, decrypts with any of them."""
    return _cipher(tuple(settings.SECRETS_ENCRYPTION_KEYS))


def _check(name: str, value: object) -> str:
    if not SECRET_NAME.fullmatch(name):
        raise ValidationFailed("name is not valid", fields={"name": "letters, digits, _ . -"})
    if not isinstance(value, str) or not value:
        raise ValidationFailed("value is required", fields={"value": "a non-empty string"})
    if len(value.encode()) > settings.SECRET_VALUE_MAX_BYTES or CONTROL_CHARACTERS.search(value):
        raise ValidationFailed(
            "value is not valid",
            fields={
                "value": f"at most {settings.SECRET_VALUE_MAX_BYTES} bytes, no control characters"
            },
        )
    return value


def secret_put(
    *, tenant: Tenant, actor: str, name: str, value: object, allowed_hosts: object = None
) -> tuple[TenantSecret, bool]:
    """Create or replace a secret; returns it and whether it was created.

    A new secret must name its hosts; a replaced one keeps its hosts unless new ones are
    given. Narrowing the hosts is never refused: a task aimed elsewhere is refused at the
    call (execution/delivery.py), so a host can be withdrawn at once. The audit entry
    names the hosts, never the value."""
    encrypted = cipher().encrypt(_check(name, value).encode()).decode()
    hosts = None if allowed_hosts is None else checked_allowed_hosts(allowed_hosts)
    for _ in range(2):
        try:
            with transaction.atomic():
                return _put(tenant, actor, name, encrypted, hosts)
        except IntegrityError:
            continue  # created concurrently: replace it
    raise IntegrityError("could not store the secret")


def _put(
    tenant: Tenant, actor: str, name: str, encrypted: str, hosts: list[str] | None
) -> tuple[TenantSecret, bool]:
    secret = TenantSecret.objects.select_for_update().filter(tenant=tenant, name=name).first()
    if secret is not None:
        changes: dict = {"created": False}  # the value is replaced: the entry says only that
        if hosts is not None:
            old = {"allowed_hosts": secret.allowed_hosts}
            changes |= field_changes(old, {"allowed_hosts": hosts})
            secret.allowed_hosts = hosts
        secret.encrypted_value = encrypted
        secret.save(update_fields=["encrypted_value", "allowed_hosts", "updated_at"])
        _record(tenant, actor, "secret.put", name, changes)
        return secret, False
    if hosts is None:
        raise ValidationFailed(
            "allowed_hosts is required for a new secret",
            fields={"allowed_hosts": "required: the hosts this secret may be sent to"},
        )
    check_secret_quota(tenant)
    secret = TenantSecret.objects.create(
        tenant=tenant, name=name, encrypted_value=encrypted, allowed_hosts=hosts
    )
    _record(tenant, actor, "secret.put", name, {"created": True, "allowed_hosts": hosts})
    return secret, True


def _record(tenant: Tenant, actor: str, action: str, name: str, changes: dict) -> None:
    record(tenant_id=tenant.id, actor=actor, action=action, target=name, changes=changes)


def secret_hosts(*, tenant: Tenant, names: set[str]) -> dict[str, list[str]]:
    """The allowed hosts of the tenant's secrets among `names` (a missing one is absent)."""
    if not names:
        return {}
    rows = TenantSecret.objects.filter(tenant=tenant, name__in=names)
    return dict(rows.values_list("name", "allowed_hosts"))


@transaction.atomic
def secret_delete(*, tenant: Tenant, actor: str, name: str) -> None:
    secret = TenantSecret.objects.select_for_update().filter(tenant=tenant, name=name).first()
    if secret is None:
        raise NotFound("secret not found")
    secret.delete()
    _record(tenant, actor, "secret.delete", name, {"allowed_hosts": secret.allowed_hosts})


def secret_names(*, tenant: Tenant, after: str | None = None, limit: int) -> list[TenantSecret]:
    """The tenant's secrets by name, starting after `after`; values stay encrypted."""
    query = TenantSecret.objects.filter(tenant=tenant)
    if after is not None:
        query = query.filter(name__gt=after)
    return list(query.order_by("name")[:limit])


@dataclass
class SecretLookup:
    """What a batch of secret references found: values, and the ones no key decrypts.
    A reference in neither names no secret of its tenant."""

    values: dict[SecretRef, str] = field(default_factory=dict)
    hosts: dict[SecretRef, frozenset[str]] = field(default_factory=dict)
    undecryptable: set[SecretRef] = field(default_factory=set)


def secret_values(*, refs: set[SecretRef]) -> SecretLookup:
    """Decrypted values, and the hosts each may go to, for (tenant id, name) pairs."""
    lookup = SecretLookup()
    if not refs:
        return lookup
    tenant_ids = {tenant_id for tenant_id, _ in refs}
    names = {name for _, name in refs}
    rows = TenantSecret.objects.filter(tenant_id__in=tenant_ids, name__in=names)
    columns = rows.values_list("tenant_id", "name", "encrypted_value", "allowed_hosts")
    for tenant_id, name, encrypted, hosts in columns:
        ref = (str(tenant_id), name)
        if ref not in refs:
            continue
        try:
            lookup.values[ref] = cipher().decrypt(encrypted.encode()).decode()
            lookup.hosts[ref] = frozenset(hosts)
        except InvalidToken:
            # A key was dropped from SECRETS_ENCRYPTION_KEYS before rotate_secrets ran.
            logger.error("secret %r of tenant %s: no key decrypts it", name, tenant_id)
            lookup.undecryptable.add(ref)
    return lookup


def secrets_rotate(*, batch_size: int = 500) -> tuple[int, int]:
    """Re-encrypt every secret with the first key; returns (rotated, undecryptable)."""
    rotated = failed = 0
    remaining = TenantSecret.objects.order_by("id")
    while True:
        batch = list(remaining[:batch_size])
        if not batch:
            return rotated, failed
        for secret in batch:
            try:
                renewed = cipher().rotate(secret.encrypted_value.encode()).decode()
            except InvalidToken:
                name, tenant_id = secret.name, secret.tenant_id
                logger.error("secret %r of tenant %s: no key decrypts it", name, tenant_id)
                failed += 1
                continue
            # Guarded by the old ciphertext: a value replaced meanwhile is left as it is.
            rotated += TenantSecret.objects.filter(
                id=secret.id, encrypted_value=secret.encrypted_value
            ).update(encrypted_value=renewed)
        remaining = TenantSecret.objects.filter(id__gt=batch[-1].id).order_by("id")
