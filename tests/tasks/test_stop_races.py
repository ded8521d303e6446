"""A tenant's stop in progress (its row written, its tasks suspended, not yet committed)
is waited for by a create or a resume, never read past: no task of a stopped tenant is
left active. MariaDB only: at READ COMMITTED a plain read sees the last committed row."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, connections

from tasks.models import Task, TaskStatus, Tenant
from tests.conftest import cron_task

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only(tenant):
    assert connection.vendor == "mysql", "SQLite's writers never overlap (IMMEDIATE)"
    Tenant.objects.filter(id=tenant.id).update(max_tasks=0)  # no quota: no row lock taken


def lock_waits() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'"
        )
        return cursor.fetchone()[0]


def during_a_stop(tenant: Tenant, request: Callable[[], object]) -> object:
    """Run `request` in a thread while another session stops the tenant as the console's
    stop does (tasks/tenants.py) and holds its transaction until `request` waits on it."""
    stop = connections.create_connection("default")
    stop.set_autocommit(False)
    tenant_id = tenant.id.hex
    with stop.cursor() as cursor:
        cursor.execute("UPDATE tenants SET is_active = 0 WHERE id = %s", [tenant_id])
        cursor.execute(
            "UPDATE tasks SET status = 'suspended' WHERE tenant_id = %s AND status = 'active'",
            [tenant_id],
        )
    answer: dict[str, object] = {}

    def run() -> None:
        try:
            answer["value"] = request()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    try:
        thread.start()
        deadline = time.monotonic() + 10
        while thread.is_alive() and not lock_waits() and time.monotonic() < deadline:
            time.sleep(0.15)  # innodb_trx is refreshed only when not read for 0.1 s
        stop.commit()
    finally:
        stop.close()  # never leave the stop's locks held past the test
    thread.join(timeout=30)
    assert "value" in answer, "the request raised or never came back"
    return answer["value"]


def active_tasks(tenant: Tenant) -> int:
    return Task.objects.filter(tenant=tenant, status=TaskStatus.ACTIVE).count()


def test_a_create_during_a_stop_is_refused(api, tenant):
    api.get("/v1/tasks")
    answer = during_a_stop(tenant, lambda: api.post("/v1/tasks", cron_task(), format="json"))
    assert answer.status_code == 409, answer.content
    assert answer.json()["error"]["code"] == "tenant_stopped"
    assert not Task.objects.filter(tenant=tenant).exists()


def test_a_batch_during_a_stop_makes_no_active_task(api, tenant):
    api.get("/v1/tasks")
    body = {"tasks": [cron_task(name="a"), cron_task(name="b")]}
    answer = during_a_stop(tenant, lambda: api.post("/v1/tasks/batch", body, format="json"))
    assert answer.status_code == 409, answer.content
    assert active_tasks(tenant) == 0


def test_a_resume_during_a_stop_leaves_the_task_suspended(api, tenant):
    made = api.post("/v1/tasks", cron_task(), format="json").json()
    api.post(f"/v1/tasks/{made['id']}/pause")
    answer = during_a_stop(tenant, lambda: api.post(f"/v1/tasks/{made['id']}/resume"))
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == TaskStatus.SUSPENDED
    assert active_tasks(tenant) == 0
