"""A tenant is marked as using flows once one of its tasks names a flow (or it turns
per-host flows on): the claim looks flows up only for such tenants' jobs (flows/gate.py).
The mark is never taken back: a tenant that stops naming flows costs the claim one read."""

from __future__ import annotations

from tasks.models import Tenant


def mark_tenant_uses_flows(tenant: Tenant) -> None:
    """In the caller's transaction, so the mark commits with the task that needs it."""
    if tenant.uses_flows:
        return
    Tenant.objects.filter(id=tenant.id, uses_flows=False).update(uses_flows=True)
    tenant.uses_flows = True
