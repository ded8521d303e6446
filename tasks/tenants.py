"""Tenant use cases of operators: revoke tokens, rotate the signing secret, stop and resume."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from audit.changes import jsonable
from audit.record import record
from scheduler_site.errors import Conflict
from tasks.models import Tenant, new_signing_secret
from tasks.suspension import tasks_resume_for_tenant, tasks_suspend_for_tenant

# For this long after a rotation every call is signed with the old secret as well.
SIGNING_SECRET_OVERLAP = timedelta(hours=24)


@transaction.atomic
def tenant_revoke_tokens(*, tenant: Tenant, actor: str, now: datetime | None = None) -> datetime:
    """Refuse every token of the tenant issued until now; returns the new cut-off.

    Tokens carry whole seconds, so the cut-off is the next whole second: a token issued in
    the same second as the revocation is refused too (issue_token issues from the cut-off).
    """
    moment = (now or timezone.now()).replace(microsecond=0) + timedelta(seconds=1)
    Tenant.objects.filter(id=tenant.id).update(tokens_not_before=moment)
    tenant.tokens_not_before = moment
    _record(tenant, actor, "tenant.revoke_tokens", {"tokens_not_before": jsonable(moment)})
    return moment


@transaction.atomic
def tenant_rotate_signing_secret(*, tenant: Tenant, actor: str, now: datetime | None = None) -> str:
    """A new signing secret; the old one keeps signing calls for SIGNING_SECRET_OVERLAP.
    The audit entry says until when the old one signs, never either secret."""
    fresh = new_signing_secret()
    until = (now or timezone.now()) + SIGNING_SECRET_OVERLAP
    while True:
        old = Tenant.objects.values_list("signing_secret", flat=True).get(id=tenant.id)
        # Guarded by the secret read: of two rotations at once, each keeps its predecessor.
        changed = Tenant.objects.filter(id=tenant.id, signing_secret=old).update(
            signing_secret=fresh, previous_signing_secret=old, previous_signing_secret_until=until
        )
        if changed:
            break
    tenant.signing_secret, tenant.previous_signing_secret = fresh, old
    tenant.previous_signing_secret_until = until
    changes = {"previous_secret_signs_until": jsonable(until)}
    _record(tenant, actor, "signing_secret.rotate", changes)
    return fresh


@transaction.atomic
def tenant_deactivate(*, tenant: Tenant, actor: str) -> None:
    """Stop a tenant: its tokens are refused, its active tasks are suspended (out of the
    tick's range) and its jobs are not claimed (jobs stay as they are, for a resume)."""
    stopped = Tenant.objects.filter(id=tenant.id, is_active=True).update(is_active=False)
    suspended = tasks_suspend_for_tenant(tenant_id=tenant.id)
    if stopped:  # stopping a stopped tenant changes nothing: no entry
        _record(tenant, actor, "tenant.stop", {"tasks_suspended": suspended})
    tenant.is_active = False


def tenant_reactivate(*, tenant: Tenant, actor: str, now: datetime | None = None) -> None:
    """Resume a tenant: each task's misfire policy decides what becomes of the runs missed
    meanwhile (run_all replays at most a cap of them); its waiting jobs are claimed again.
    The tasks come back in batches of their own after the tenant's row and its entry."""
    with transaction.atomic():
        if Tenant.objects.filter(id=tenant.id, is_active=False).update(is_active=True):
            _record(tenant, actor, "tenant.resume", {})
    tenant.is_active = True
    tasks_resume_for_tenant(tenant_id=tenant.id, now=now or timezone.now())


def _record(tenant: Tenant, actor: str, action: str, changes: dict) -> None:
    record(tenant_id=tenant.id, actor=actor, action=action, target=tenant.id, changes=changes)


def refuse_if_stopped(tenant: Tenant) -> None:
    """409 for a run asked by hand (an operator's run now or retry) of a stopped tenant:
    its job would only wait, unclaimed, until the tenant is resumed."""
    if not tenant.is_active:
        raise Conflict(
            f"the tenant {tenant.name} is stopped: resume it first", code="tenant_stopped"
        )


def inactive_tenant_ids() -> frozenset[uuid.UUID]:
    """The tenants an operator stopped (a short list: read on every tick and claim)."""
    return frozenset(Tenant.objects.filter(is_active=False).values_list("id", flat=True))
