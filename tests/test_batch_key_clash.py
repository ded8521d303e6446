"""A batch create whose idempotency key another request takes between the batch's lookup of
its keys and its insert: the unique key refuses the insert, the batch is planned again, and
the creation rate is not charged twice for it.

The other request is a real insert on its own connection, made at that moment by a hook on
the batch's statements; on MariaDB (this file is not in the SQLite run: a second thread's
connection there is another in-memory database).
"""

import threading

import pytest
from django.db import connection

from tasks.models import Task, Tenant
from tests.conftest import cron_task
from tests.statement_hooks import once_after_first

pytestmark = pytest.mark.django_db(transaction=True)


def insert_elsewhere(add_task, key: str) -> None:
    """Another request's task with `key`, committed from another thread and connection."""

    def work() -> None:
        try:
            add_task(name="the other request", idempotency_key=key)
        finally:
            connection.close()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()


def is_key_lookup(sql: str) -> bool:
    return "idempotency_key" in sql and sql.lstrip().startswith("SELECT")


def test_a_batch_planned_again_after_a_key_clash_is_charged_once(api, tenant, add_task):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=2)
    items = [{**cron_task(name="a"), "idempotency_key": "k-a"}, cron_task(name="b")]
    # once the batch has looked its keys up, another request takes one
    clash = once_after_first(is_key_lookup, lambda: insert_elsewhere(add_task, "k-a"))
    with connection.execute_wrapper(clash):
        response = api.post("/v1/tasks/batch", {"tasks": items}, format="json")
    assert response.status_code == 200, response.json()
    first, second = response.json()["results"]
    assert second["status"] == 201 and second["task"]["name"] == "b"
    # the key's task is the other request's: this item replays it or is refused, never a copy
    assert first["status"] in (201, 422) and first.get("replayed", True)
    assert Task.objects.filter(tenant=tenant, idempotency_key="k-a").count() == 1
    assert Task.objects.filter(tenant=tenant).count() == 2
