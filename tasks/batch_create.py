"""Create up to 500 tasks in one request: each item checked as a single create would be,
the new ones inserted in one statement, one result per item in the request's order.

An item with an idempotency key that was used before replays the earlier task (or is a 422
if the body differs), as a single create does; a key given twice in one batch makes one
task. The creation rate is charged once for all the new tasks; the task quota is counted
once, under the tenant's row lock, and the items beyond it get a 403 each.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from scheduler_site.errors import ApplicationError, QuotaExceeded, error_body
from tasks.models import Task, Tenant
from tasks.quotas import room_for_tasks
from tasks.rate_limit import take_creation_token
from tasks.secrets import secret_hosts
from tasks.services import task_prepare, task_replay

MAX_BATCH = 500


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


@dataclass
class RateCharge:
    """Creations this request took from the tenant's rate bucket: a batch planned again
    after a key clash is charged only for new tasks it was not charged for before."""

    taken: int = 0

    def take(self, tenant: Tenant, count: int) -> None:
        if count > self.taken:
            take_creation_token(tenant, count - self.taken)
            self.taken = count


def tasks_create_batch(*, tenant: Tenant, items: list[BatchItem]) -> list[ItemResult]:
    charge = RateCharge()
    for _ in range(2):  # a key taken by a concurrent request meanwhile: plan once more
        try:
            return _create(tenant, items, charge)
        except IntegrityError:
            continue
    return _create(tenant, items, charge)


def _create(tenant: Tenant, items: list[BatchItem], charge: RateCharge) -> list[ItemResult]:
    results: list[ItemResult | None] = [None] * len(items)
    fresh: dict[int, Task] = {}  # item index -> task to insert
    repeats: dict[int, int] = {}  # item index -> the earlier item with the same key
    first_with_key: dict[str, int] = {}
    existing = _existing_by_key(tenant, items)
    hosts_by_name = _secret_hosts_named(tenant, items)
    for index, item in enumerate(items):
        key = item.idempotency_key
        if item.error is not None:
            results[index] = _refused(item.error)
        elif key in existing:
            results[index] = _replayed(existing[key], item.request_hash)
        elif key in first_with_key:
            repeats[index] = first_with_key[key]
        else:
            if key:
                first_with_key[key] = index
            results[index] = _prepared(tenant, item, index, fresh, hosts_by_name)
    charge.take(tenant, len(fresh))
    with transaction.atomic():
        room = room_for_tasks(tenant)
        admitted = set(list(fresh)[:room] if room is not None else fresh)
        Task.objects.bulk_create([task for index, task in fresh.items() if index in admitted])
    for index in fresh:
        results[index] = ItemResult(201, fresh[index]) if index in admitted else _over_quota()
    for index, first in repeats.items():
        earlier = results[first]
        same = earlier.task is not None and not earlier.replayed
        results[index] = _replayed(earlier.task, items[index].request_hash) if same else earlier
    return results


def _prepared(
    tenant: Tenant, item: BatchItem, index: int, fresh: dict, hosts_by_name: dict
) -> ItemResult | None:
    try:
        fresh[index] = task_prepare(
            tenant=tenant,
            data=item.data,
            idempotency_key=item.idempotency_key,
            request_hash=item.request_hash,
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
