"""Create up to 500 tasks in one request: each item checked as a single create would be,
the new ones inserted in one statement, one result per item in the request's order.

The caller charges every item to the creation rate before reading any (a refused item
costs as much as a created one); the items the quota refuses and the replays are given
back. The hosts of all the items are looked up at once, under one deadline for the whole
request. An item with an idempotency key that was used before replays the earlier task (or
is a 422 if the body differs), as a single create does; a key given again later in the same
batch is a 422 for that later item. The task quota is counted once, under the tenant's row
lock, and the items beyond it get a 403 each.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from audit.changes import fields_of
from audit.record import record, record_many
from flows.usage import mark_tenant_uses_flows
from scheduler_site.errors import ApplicationError, QuotaExceeded, Unprocessable, error_body
from scheduler_site.plain_inserts import insert_many
from tasks.callback_urls import all_urls
from tasks.host_lookups import HostLookups
from tasks.models import Task, Tenant
from tasks.quotas import room_for_tasks
from tasks.rate_limit import give_back_creation_tokens
from tasks.rules import names_to_resolve
from tasks.secrets import secret_hosts
from tasks.services import task_prepare, task_replay

MAX_BATCH = 500
# The batch's entry names its first tasks only; each task made has its own task.create.
AUDITED_IDS = 100


@dataclass
class BatchItem:
    """One item as the view read it: its validated fields, or why it was refused."""

    data: dict | None
    idempotency_key: str | None = None
    request_hash: str = ""
    error: Exception | None = None


@dataclass
class ItemResult:
    status: int
    task: Task | None = None
    replayed: bool = False
    error: dict | None = None

    @property
    def error_code(self) -> str | None:
        return self.error["code"] if self.error else None


def tasks_create_batch(*, tenant: Tenant, actor: str, items: list[BatchItem]) -> list[ItemResult]:
    """The items' results; every item was charged to the creation rate by the caller."""
    lookups = HostLookups(tenant.id)
    lookups.start(names_to_resolve(all_urls(item.data for item in items if item.data)))
    results = _planned(tenant, actor, items, lookups)
    uncharged = sum(1 for r in results if r.replayed or r.error_code == QuotaExceeded.code)
    give_back_creation_tokens(tenant, uncharged)
    return results


def _planned(
    tenant: Tenant, actor: str, items: list[BatchItem], lookups: HostLookups
) -> list[ItemResult]:
    for _ in range(2):  # a key taken by a concurrent request meanwhile: plan once more
        try:
            return _create(tenant, actor, items, lookups)
        except IntegrityError:
            continue
    return _create(tenant, actor, items, lookups)


def _create(
    tenant: Tenant, actor: str, items: list[BatchItem], lookups: HostLookups
) -> list[ItemResult]:
    results: list[ItemResult | None] = [None] * len(items)
    fresh: dict[int, Task] = {}  # item index -> task to insert
    first_with_key: dict[str, int] = {}
    existing = _existing_by_key(tenant, items)
    hosts_by_name = _secret_hosts_named(tenant, items)
    for index, item in enumerate(items):
        key = item.idempotency_key
        if item.error is not None:
            results[index] = _refused(item.error)
        elif key in first_with_key:
            results[index] = _repeated_key(first_with_key[key])
        elif key in existing:
            first_with_key[key] = index
            results[index] = _replayed(existing[key], item.request_hash)
        else:
            if key:
                first_with_key[key] = index
            results[index] = _prepared(tenant, item, index, fresh, lookups, hosts_by_name)
    with transaction.atomic():
        if any(task.flow_key for task in fresh.values()):  # first: see flows.usage
            mark_tenant_uses_flows(tenant)
        room = room_for_tasks(tenant, len(fresh)) if fresh else 0
        admitted = set(list(fresh)[:room] if room is not None else fresh)
        made = [task for index, task in fresh.items() if index in admitted]
        insert_many(made)
        _record_batch(tenant, actor, made)
        _record_creates(tenant, actor, [(fresh[i], items[i].data) for i in sorted(admitted)])
    for index in fresh:
        results[index] = ItemResult(201, fresh[index]) if index in admitted else _over_quota()
    return results


def _record_batch(tenant: Tenant, actor: str, made: list[Task]) -> None:
    """One entry for the tasks the batch made (none when it made none: replays only)."""
    if not made:
        return
    changes = {"count": len(made), "task_ids": [str(task.id) for task in made[:AUDITED_IDS]]}
    record(tenant_id=tenant.id, actor=actor, action="task.batch", changes=changes)


def _record_creates(tenant: Tenant, actor: str, made: list[tuple[Task, dict]]) -> None:
    """A task.create per task made, as a single create writes: GET /v1/audit?target=<id>
    finds each one, however long the batch."""
    record_many(
        tenant_id=tenant.id,
        actor=actor,
        action="task.create",
        changes_by_target={task.id: fields_of(task, data) for task, data in made},
    )


def _repeated_key(first: int) -> ItemResult:
    message = f"this idempotency_key is already used by item {first} of this batch"
    return _refused(
        Unprocessable(message, code="idempotency_key_repeated", fields={"idempotency_key": message})
    )


def _prepared(
    tenant: Tenant,
    item: BatchItem,
    index: int,
    fresh: dict,
    lookups: HostLookups,
    hosts_by_name: dict,
) -> ItemResult | None:
    try:
        fresh[index] = task_prepare(
            tenant=tenant,
            data=item.data,
            idempotency_key=item.idempotency_key,
            request_hash=item.request_hash,
            lookups=lookups,
            hosts_by_name=hosts_by_name,
        )
    except ApplicationError as exc:
        return _refused(exc)
    return None


def _secret_hosts_named(tenant: Tenant, items: list[BatchItem]) -> dict[str, list[str]]:
    """The allowed hosts of every secret the batch names, in one read."""
    names = {item.data.get("secret_ref") for item in items if item.data}
    return secret_hosts(tenant=tenant, names=names - {None})


def _existing_by_key(tenant: Tenant, items: list[BatchItem]) -> dict[str, Task]:
    keys = {item.idempotency_key for item in items if item.idempotency_key and not item.error}
    if not keys:
        return {}
    found = Task.objects.filter(tenant=tenant, idempotency_key__in=keys)
    return {task.idempotency_key: task for task in found}


def _over_quota() -> ItemResult:
    return _refused(
        QuotaExceeded("the tenant's task quota is used up", fields={"quota": "max_tasks"})
    )


def _replayed(task: Task, request_hash: str) -> ItemResult:
    try:
        return ItemResult(201, task_replay(task, request_hash), replayed=True)
    except ApplicationError as exc:  # the 422 of a reused key, for this item only
        return _refused(exc)


def _refused(exc: Exception) -> ItemResult:
    status, body = error_body(exc)
    return ItemResult(status, error=body["error"])
