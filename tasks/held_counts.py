"""How many tasks a tenant holds, as the task quota sees it: an upper bound in a row of its
own (TaskCount), so that the quota counts the tasks (a COUNT(*) over them) only near its
limit instead of at every create.

Used only in the creating transaction, with the tenant's row locked: the creations that
check the quota read and raise the bound one after another, so two of them cannot both take
the last place, and a creation rolled back takes its raise with it. Every change that makes
a tenant hold more tasks passes here (create, batch, a finished task running again).
Deletions and finished tasks do not lower the bound: it is counted again when it says the
tenant is full, and when its last count is older than RECOUNT_AFTER (which also heals a
bound that tasks made by an older release, during a rolling upgrade, left too low).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import F
from django.utils import timezone

from tasks.models import TaskCount, Tenant

RECOUNT_AFTER = timedelta(seconds=60)


def lock_with_bound(tenant: Tenant) -> tuple[bool, int | None, datetime | None]:
    """Lock the tenant's row (and its bound's) and read whether it is active, the bound and
    when it was counted: one statement."""
    row = (
        Tenant.objects.select_for_update()
        .filter(id=tenant.id)
        .values_list("is_active", "task_count__held_bound", "task_count__counted_at")
        .first()
    )
    return row if row is not None else (False, None, None)


def take_room(tenant: Tenant, limit: int, wanted: int, count: Callable[[], int]) -> int:
    """How many of `wanted` new tasks fit under `limit` (0 to `wanted`), added to the bound;
    `count()` is the exact number held, asked only near the limit. Sets `tenant.is_active`
    from the locked row (the caller's copy may be a second old)."""
    tenant.is_active, bound, counted_at = lock_with_bound(tenant)
    now = timezone.now()
    fresh = counted_at is not None and now - counted_at < RECOUNT_AFTER
    if bound is not None and fresh and bound + wanted <= limit:
        TaskCount.objects.filter(tenant_id=tenant.id).update(held_bound=F("held_bound") + wanted)
        return wanted
    held = count()
    taken = max(0, min(wanted, limit - held))
    _store(tenant, held + taken, now)
    return taken


def count_one_more(tenant: Tenant) -> None:
    """A task the tenant holds again without a create (a finished one-off paused while its
    job waits): the bound stays an upper bound. Not refused: a pause never was."""
    TaskCount.objects.filter(tenant_id=tenant.id).update(held_bound=F("held_bound") + 1)


def _store(tenant: Tenant, bound: int, now: datetime) -> None:
    """Insert or replace the tenant's bound in one statement."""
    unique = ["tenant"] if connection.features.supports_update_conflicts_with_target else None
    TaskCount.objects.bulk_create(
        [TaskCount(tenant_id=tenant.id, held_bound=bound, counted_at=now)],
        update_conflicts=True,
        unique_fields=unique,
        update_fields=["held_bound", "counted_at"],
    )
