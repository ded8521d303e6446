"""The upsert by name (PUT /v1/tasks/by-name/{name}): the tenant's task of that name is
replaced by the full task given, or created when there is none, so a deploy script or a
declarative sync can apply the same file any number of times.

A replacement is the PATCH of every field, omitted ones back to their defaults; one that
changes nothing saves nothing (no version bump, no audit entry). The creation runs with the
tenant's row locked, after a second look for the name: two concurrent upserts of a new name
make one task, the other replaces it. Several tasks of the name (POST allows that) are a 409.
"""

from __future__ import annotations

from django.db import transaction

from scheduler_site.errors import Conflict, PreconditionFailed, QuotaExceeded
from scheduler_site.preconditions import ANY_VERSION
from tasks import services
from tasks.models import Task, TaskStatus, Tenant
from tasks.rate_limit import give_back_creation_tokens, take_creation_token
from tasks.task_names import with_name

MAX_IDS_SHOWN = 10


def task_upsert(
    *,
    tenant: Tenant,
    actor: str,
    name: str,
    data: dict,
    expected_version: int | None,
    must_exist: bool = False,
) -> tuple[Task, bool]:
    """The task as it now is, and whether this call created it. `must_exist` (If-Match: *,
    which RFC 9110 makes false when there is nothing to match) replaces, never creates."""
    data = {**data, "name": name}
    task = named_task(tenant=tenant, name=name)
    if task is None:
        if expected_version is not ANY_VERSION or must_exist:
            raise PreconditionFailed(f"If-Match was sent but no task is named {name!r}")
        created = _create(tenant, actor, name, data)
        if created is not None:
            return created, True
        task = named_task(tenant=tenant, name=name)  # made meanwhile by a concurrent upsert
        if task is None:  # ... and deleted since
            raise Conflict(f"the task named {name!r} changed meanwhile; try again", code="busy")
    return _replace(tenant, actor, task, data, expected_version), False


def named_task(*, tenant: Tenant, name: str) -> Task | None:
    """The tenant's task of this exact name, None if none; several are a 409 naming them."""
    query = with_name(Task.objects.filter(tenant=tenant), name).exclude(status=TaskStatus.DELETED)
    matches = [task for task in query.order_by("id")[: MAX_IDS_SHOWN + 1] if task.name == name]
    if len(matches) > 1:
        total = query.count()
        shown = ", ".join(str(task.id) for task in matches[:MAX_IDS_SHOWN])
        raise Conflict(
            f"{total} tasks are named {name!r} ({shown}{', ...' if total > MAX_IDS_SHOWN else ''}):"
            " rename or delete all but one to upsert by name",
            fields={"name": f"{total} tasks have this name"},
            code="name_not_unique",
        )
    return matches[0] if matches else None


def _create(tenant: Tenant, actor: str, name: str, data: dict) -> Task | None:
    """The new task, or None when the name was taken while this one was being checked."""
    # Checked (address lookups included) before the lock, which other creations wait for.
    task = services.task_prepare(tenant=tenant, data=data)
    take_creation_token(tenant)
    try:
        with transaction.atomic():
            Tenant.objects.select_for_update().filter(id=tenant.id).values_list("id").first()
            if named_task(tenant=tenant, name=name) is not None:
                give_back_creation_tokens(tenant, 1)
                return None
            services.task_insert(tenant=tenant, actor=actor, task=task, data=data)
    except QuotaExceeded:
        give_back_creation_tokens(tenant, 1)
        raise
    return task


def _replace(
    tenant: Tenant, actor: str, task: Task, data: dict, expected_version: int | None
) -> Task:
    changes = _defaults() | data
    return services.task_update(
        tenant=tenant,
        actor=actor,
        task_id=task.id,
        expected_version=expected_version,
        changes=changes,
        keep_version_if_unchanged=True,
    )


def _defaults() -> dict:
    """Each editable field's value in a task created without it: what an omitted field of a
    full replacement goes back to."""
    return {field: Task._meta.get_field(field).get_default() for field in services.EDITABLE_FIELDS}
