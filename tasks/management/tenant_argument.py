"""The TENANT argument of the operators' commands: a tenant id, refused clearly when unknown."""

import uuid

from django.core.management.base import CommandError

from tasks.models import Tenant


def tenant_by_id(tenant_id: str, *, active_only: bool = False) -> Tenant:
    query = Tenant.objects.filter(is_active=True) if active_only else Tenant.objects.all()
    try:
        return query.get(id=uuid.UUID(tenant_id))
    except (ValueError, Tenant.DoesNotExist) as exc:
        kind = "active tenant" if active_only else "tenant"
        raise CommandError(f"no {kind} {tenant_id}") from exc


def active_tenant(tenant_id: str) -> Tenant:
    return tenant_by_id(tenant_id, active_only=True)
