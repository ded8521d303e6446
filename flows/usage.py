"""A tenant is marked as using flows once one of its tasks names a flow (or it turns
per-host flows on): the claim looks flows up only for such tenants' jobs (flows/gate.py).
The mark is never taken back: a tenant that stops naming flows costs the claim one read."""

from __future__ import annotations

from django.db import transaction

from tasks.models import Tenant


def mark_tenant_uses_flows(tenant: Tenant) -> None:
    """In the caller's transaction, so the mark commits with the task that needs it, and
    before the create reads the tenant's row: the UPDATE takes the row's exclusive lock
    first. After a shared read (the create's check that the tenant is active), two
    creates (or edits) would each hold the shared lock and wait for the other's to upgrade,
    and MariaDB would kill one as a deadlock. A refusal that raises rolls the mark back with
    the rest; a batch whose items the quota refuses keeps it, which costs the claim at most
    one read per round."""
    if tenant.uses_flows:
        return
    Tenant.objects.filter(id=tenant.id, uses_flows=False).update(uses_flows=True)
    # Only once the mark is committed: a batch that rolls back (a key taken meanwhile) and
    # plans again with the same tenant object must write the mark again.
    transaction.on_commit(lambda: setattr(tenant, "uses_flows", True))
