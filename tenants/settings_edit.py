"""The tenant's edit of its own settings, and its audit entry in the same transaction."""

from __future__ import annotations

from django.db import transaction

from audit.record import record
from scheduler_site.errors import PreconditionFailed
from scheduler_site.preconditions import ANY_VERSION
from tasks.models import Tenant
from tenants.destination import check_callback_url


def tenant_settings_update(
    *, tenant: Tenant, expected_version: int | None, changes: dict, actor: str
) -> Tenant:
    """Apply `changes` (validated by TenantPatchInput); the URLs are checked first, outside
    the transaction, as their host lookups may take a while."""
    if "on_failure_url" in changes:
        check_callback_url("on_failure_url", changes["on_failure_url"], tenant.id)
    return _save(tenant, expected_version, changes, actor)


@transaction.atomic
def _save(tenant: Tenant, expected_version: int | None, changes: dict, actor: str) -> Tenant:
    locked = Tenant.objects.select_for_update().get(id=tenant.id)
    if expected_version is not ANY_VERSION and locked.settings_version != expected_version:
        raise PreconditionFailed(
            f"the tenant's settings have changed: their version is {locked.settings_version},"
            f" not {expected_version}"
        )
    changed = {field: value for field, value in changes.items() if getattr(locked, field) != value}
    if not changed:  # a PATCH giving the values the tenant has: no save, no entry
        return locked
    before = {field: getattr(locked, field) for field in changed}
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.settings_version += 1
    marked = ["uses_flows"] if changed.get("per_host_flows") else []
    if marked:  # the claim looks flows up only for tenants marked so (flows/usage.py)
        locked.uses_flows = True
    locked.save(update_fields=[*changed, *marked, "settings_version"])
    record(
        tenant_id=locked.id,
        actor=actor,
        action="tenant.update",
        target=locked.id,
        changes={field: {"old": before[field], "new": changed[field]} for field in changed},
    )
    return locked
