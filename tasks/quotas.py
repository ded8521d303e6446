"""Per-tenant quotas: how many tasks and secrets a tenant may hold.

Each quota has a default in settings and an override on the tenant; 0 means unlimited.
A quota used up is a 403 `quota_exceeded` naming it. The checks are made with the tenant's
row locked, so concurrent creations cannot both take the last place; the tasks are counted
only near the limit (tasks/held_counts.py), the secrets at each check.
"""

from __future__ import annotations

from django.conf import settings

from scheduler_site.errors import Conflict, QuotaExceeded
from tasks.held_counts import take_room
from tasks.models import Task, TaskStatus, Tenant, TenantSecret
from tasks.tenant_cache import active_now

DEFAULTS = {
    "max_tasks": "TENANT_MAX_TASKS",
    "max_secrets": "TENANT_MAX_SECRETS",
    "create_rate": "TENANT_CREATE_RATE",
    "create_burst": "TENANT_CREATE_BURST",
}
HELD_TASK_STATUSES = (TaskStatus.ACTIVE, TaskStatus.PAUSED, TaskStatus.SUSPENDED)


def quota(tenant: Tenant, name: str) -> int:
    """The tenant's own value, or the default from settings; 0 means unlimited."""
    own = getattr(tenant, name)
    return getattr(settings, DEFAULTS[name]) if own is None else own


def _lock(tenant: Tenant) -> None:
    Tenant.objects.select_for_update().filter(id=tenant.id).values_list("id").first()


def check_task_quota(tenant: Tenant) -> None:
    """Call inside the creating transaction: one more active or paused task must fit."""
    if room_for_tasks(tenant, 1) == 0:
        raise QuotaExceeded(
            f"the tenant's quota of {quota(tenant, 'max_tasks')} active or paused tasks is used up",
            fields={"quota": "max_tasks"},
        )


def room_for_tasks(tenant: Tenant, wanted: int) -> int | None:
    """Call inside the creating transaction, which then makes that many tasks: how many of
    `wanted` more tasks fit (None: no limit). A tenant stopped since its token was checked
    (against a copy up to a second old) is refused here, by its row, with 409."""
    limit = quota(tenant, "max_tasks")
    if not limit:
        tenant.is_active = active_now(tenant)
        room = None
    else:
        room = take_room(tenant, limit, wanted, lambda: held_tasks(tenant))  # locks the row
    if not tenant.is_active:
        raise tenant_stopped()
    return room


def tenant_stopped() -> Conflict:
    return Conflict("the tenant is stopped: it makes no tasks", code="tenant_stopped")


def held_tasks(tenant: Tenant) -> int:
    return Task.objects.filter(tenant=tenant, status__in=HELD_TASK_STATUSES).count()


def check_secret_quota(tenant: Tenant) -> None:
    """Call inside the creating transaction: one more secret must fit."""
    limit = quota(tenant, "max_secrets")
    if not limit:
        return
    _lock(tenant)
    held = TenantSecret.objects.filter(tenant=tenant).count()
    if held >= limit:
        raise QuotaExceeded(
            f"the tenant holds {held} secrets, its quota is {limit}",
            fields={"quota": "max_secrets"},
        )
