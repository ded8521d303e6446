"""The tenant's quotas as it reads them: each limit, whether it is the tenant's own or the
default from settings, and what is used where counting it is cheap (one indexed count)."""

from __future__ import annotations

from tasks.models import Task, Tenant, TenantSecret
from tasks.quotas import DEFAULTS, HELD_TASK_STATUSES, quota


def quotas_of(tenant: Tenant) -> dict[str, dict]:
    used = {
        "max_tasks": Task.objects.filter(tenant=tenant, status__in=HELD_TASK_STATUSES).count(),
        "max_secrets": TenantSecret.objects.filter(tenant=tenant).count(),
    }
    return {
        name: {
            "limit": quota(tenant, name),
            "source": "default" if getattr(tenant, name) is None else "tenant",
            **({"used": used[name]} if name in used else {}),
        }
        for name in DEFAULTS
    }
