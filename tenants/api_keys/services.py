"""Creating and revoking API keys, each with its audit entry in the same transaction."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.changes import jsonable
from audit.record import record
from scheduler_site.errors import Conflict, NotFound
from tasks.models import Tenant
from tenants.api_keys.key_format import key_hash, new_key
from tenants.models import ApiKey

# Keys not revoked (expired ones included, until revoked): a bound on what a list shows.
MAX_LIVE_KEYS = 100
PREFIX_TRIES = 5  # a clash of 8 random characters is rare: a few tries always suffice


def live_keys(tenant_id: uuid.UUID):
    return ApiKey.objects.filter(tenant_id=tenant_id, revoked_at__isnull=True)


@transaction.atomic
def api_key_create(
    *, tenant: Tenant, actor: str, name: str, scope: str, expires_at: datetime | None
) -> tuple[ApiKey, str]:
    """The new key's row and the key itself (the one time it exists outside the caller)."""
    # The tenant's row, locked, orders its concurrent creations: the cap holds under races.
    Tenant.objects.select_for_update().filter(id=tenant.id).exists()
    if live_keys(tenant.id).count() >= MAX_LIVE_KEYS:
        raise Conflict(
            f"a tenant holds at most {MAX_LIVE_KEYS} API keys: revoke one first",
            code="too_many_api_keys",
        )
    api_key, key = _insert(tenant, name=name, scope=scope, expires_at=expires_at)
    changes = {"name": name, "scope": scope, "prefix": api_key.prefix}
    record(
        tenant_id=tenant.id,
        actor=actor,
        action="api_key.create",
        target=api_key.id,
        changes=changes | {"expires_at": jsonable(expires_at)},
    )
    return api_key, key


def _insert(tenant: Tenant, **fields) -> tuple[ApiKey, str]:
    for attempt in range(PREFIX_TRIES):
        prefix, key = new_key()
        try:
            with transaction.atomic():  # a savepoint: a clash leaves the transaction usable
                row = ApiKey.objects.create(
                    tenant=tenant, prefix=prefix, key_hash=key_hash(key), **fields
                )
            return row, key
        except IntegrityError:
            if attempt == PREFIX_TRIES - 1:
                raise
    raise AssertionError("unreachable")


@transaction.atomic
def api_key_revoke(*, tenant: Tenant, actor: str, key_id: uuid.UUID) -> None:
    """Revoke one of the tenant's live keys; anyone else's, or a revoked one, is a 404."""
    api_key = live_keys(tenant.id).select_for_update().filter(id=key_id).first()
    if api_key is None:
        raise NotFound("API key not found")
    api_keys_revoke(keys=[api_key], actor=actor)


@transaction.atomic
def api_keys_revoke(*, keys: Iterable[ApiKey], actor: str) -> int:
    """Revoke the keys not yet revoked (the console's action too); returns how many."""
    now, revoked = timezone.now(), 0
    for api_key in keys:
        if not ApiKey.objects.filter(id=api_key.id, revoked_at__isnull=True).update(revoked_at=now):
            continue  # revoked meanwhile: its entry is written already
        api_key.revoked_at, revoked = now, revoked + 1
        record(
            tenant_id=api_key.tenant_id,
            actor=actor,
            action="api_key.revoke",
            target=api_key.id,
            changes={"name": api_key.name, "prefix": api_key.prefix},
        )
    return revoked
