"""A mark that a tenant uses flows, rolled back with its transaction, is written again by
the retry: a batch that loses an idempotency key to a concurrent request rolls back and
plans again with the same Tenant object, and its flow-named tasks need the mark (the claim
looks flows up only for marked tenants). MariaDB only: SQLite's writers never overlap."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from scheduler_site.plain_inserts import insert_many
from tasks.batch_create import BatchItem, ItemResult, tasks_create_batch
from tasks.models import Task, Tenant
from tasks.serializers import read_task
from tasks.services import task_prepare
from tests.conftest import cron_task
from tests.db_threads import in_thread
from tests.tasks.row_locks import wait_for_lock_waits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only(db):
    assert connection.vendor == "mysql", "SQLite's writers never overlap (IMMEDIATE)"


def key_taken_meanwhile(tenant: Tenant, key: str, ready, release) -> None:
    """A concurrent create of the key, uncommitted until `release`: the batch's insert
    waits for it, then fails on the key, and the batch plans again."""
    try:
        with transaction.atomic():
            data = read_task(cron_task(name="first"))
            insert_many([task_prepare(tenant=tenant, data=data, idempotency_key=key)])
            ready.set()
            release.wait(30)
    finally:
        connections.close_all()


def test_a_batch_retried_after_losing_a_key_still_marks_its_tenant():
    tenant = Tenant.objects.create(name="retried", max_tasks=0)
    ready, release = threading.Event(), threading.Event()
    taker = threading.Thread(target=key_taken_meanwhile, args=(tenant, "k", ready, release))
    taker.start()
    assert ready.wait(20)
    items = [
        BatchItem(read_task(cron_task(name="keyed", flow_key="f")), idempotency_key="k"),
        BatchItem(read_task(cron_task(name="fresh", flow_key="f"))),
    ]
    results: list[ItemResult] = []
    by_request = Tenant.objects.get(id=tenant.id)  # a Tenant object of the request's own
    batch = in_thread(
        lambda: results.extend(tasks_create_batch(tenant=by_request, actor="test", items=items))
    )
    try:
        wait_for_lock_waits(1)
    finally:
        release.set()
        taker.join(timeout=30)
        batch.join(timeout=30)
    assert results[1].status == 201
    assert Task.objects.filter(tenant=tenant, flow_key="f").exists()
    assert Tenant.objects.get(id=tenant.id).uses_flows
