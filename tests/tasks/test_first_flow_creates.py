"""A tenant's first tasks that name a flow, created at the same moment, are all made: the
mark that the tenant uses flows takes the tenant's row before the create reads it shared,
so two creates never hold the shared lock each while waiting for the other's to upgrade
(MariaDB would kill one as a deadlock). MariaDB only: SQLite's writers never overlap."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from flows.usage import mark_tenant_uses_flows
from tasks.batch_create import BatchItem, tasks_create_batch
from tasks.models import Task, Tenant
from tasks.serializers import read_task
from tasks.services import task_create
from tests.conftest import cron_task
from tests.db_threads import in_thread

pytestmark = pytest.mark.django_db(transaction=True)
TENANTS, AT_ONCE = 12, 6


@pytest.fixture(autouse=True)
def _mariadb_only(db):
    assert connection.vendor == "mysql", "SQLite's writers never overlap (IMMEDIATE)"


def at_once(work: list) -> list[BaseException]:
    """Run every callable in its own thread, released together; the errors they raised."""
    start, errors = threading.Barrier(len(work)), []
    threads = [in_thread(lambda job=job: (start.wait(), job()), errors) for job in work]
    for thread in threads:
        thread.join(timeout=60)
    return errors


def single(tenant: Tenant, n: int):
    """A create as a request makes it: with a tenant object of its own."""
    body = cron_task(name=f"t{n}", flow_key=f"flow-{n % 2}")
    return lambda: task_create(
        tenant=Tenant.objects.get(id=tenant.id), actor="test", read_data=lambda: read_task(body)
    )


def batch(tenant: Tenant, n: int):
    items = [BatchItem(read_task(cron_task(name=f"b{n}-{i}", flow_key="f"))) for i in range(3)]
    return lambda: tasks_create_batch(
        tenant=Tenant.objects.get(id=tenant.id), actor="test", items=items
    )


def test_first_flow_named_creates_at_once_are_all_made():
    tenants = [Tenant.objects.create(name=f"t{i}", max_tasks=0) for i in range(TENANTS)]
    errors = at_once([single(tenant, n) for tenant in tenants for n in range(AT_ONCE)])
    assert errors == []
    assert Task.objects.count() == TENANTS * AT_ONCE
    assert all(t.uses_flows for t in Tenant.objects.all())


def test_first_flow_named_batches_at_once_are_all_made():
    tenants = [Tenant.objects.create(name=f"t{i}", max_tasks=0) for i in range(TENANTS)]
    errors = at_once([batch(tenant, n) for tenant in tenants for n in range(AT_ONCE)])
    assert errors == []
    assert Task.objects.count() == TENANTS * AT_ONCE * 3
    assert all(t.uses_flows for t in Tenant.objects.all())


def test_a_mark_rolled_back_is_written_again_by_the_same_tenant_object():
    """A batch that loses a key to a concurrent request rolls back and plans again with the
    same tenant object: its second try must still mark the tenant."""
    tenant = Tenant.objects.create(name="retried")
    with pytest.raises(RuntimeError), transaction.atomic():
        mark_tenant_uses_flows(tenant)
        raise RuntimeError("a key taken meanwhile")
    assert not tenant.uses_flows
    assert not Tenant.objects.get(id=tenant.id).uses_flows
    with transaction.atomic():
        mark_tenant_uses_flows(tenant)
    assert tenant.uses_flows and Tenant.objects.get(id=tenant.id).uses_flows
