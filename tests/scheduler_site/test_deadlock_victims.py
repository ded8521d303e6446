"""A request the database rolls back to break a deadlock is answered 503 `busy` with
Retry-After (which the SDK sends again), never a 500: it wrote nothing.

The deadlock is a real one, made through the API: a resume takes the tenant's row shared,
then the task's; a tenant's first flow-named edit takes the task's row, then writes the
tenant's (the mark that it uses flows). With the edit first in the queue for the task's
row and the resume holding the tenant's, each waits for the other. MariaDB only: SQLite's
writers never overlap."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection, connections

from audit.models import AuditEntry
from jobs import bulk_actions
from tasks.models import Task, TaskStatus, Tenant
from tests.api.bulk_jobs import add_job, statuses
from tests.conftest import client_for, cron_task
from tests.db_threads import in_thread
from tests.tasks.row_locks import lock_waits, wait_for_lock_waits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only(db):
    # SQLite's writers never overlap (IMMEDIATE); MySQL grants row locks out of arrival order.
    assert connection.vendor == "mysql" and connection.mysql_is_mariadb


def paused_task(tenant: Tenant) -> dict:
    api = client_for(tenant)
    task = api.post("/v1/tasks", cron_task(), format="json").json()
    paused = api.post(f"/v1/tasks/{task['id']}/pause")
    assert paused.status_code == 200, paused.content
    return paused.json()


def queued(count: int) -> None:
    """Until `count` of this test's sessions wait for a row lock: the order they queued in
    is the order InnoDB grants the lock."""
    wait_for_lock_waits(count)
    assert lock_waits() >= count, "the requests did not queue for the task's row"


def test_a_deadlock_victim_is_answered_503_busy_and_the_other_request_is_made():
    tenant = Tenant.objects.create(name="races")
    task = paused_task(tenant)
    edit, resume = client_for(tenant), client_for(tenant)
    answers: list = []
    threads: list[threading.Thread] = []
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:  # the task's row, until both requests wait for it
            cursor.execute(
                "SELECT id FROM tasks WHERE id = %s FOR UPDATE", [uuid.UUID(task["id"]).hex]
            )
        threads.append(in_thread(lambda: answers.append(first_flow_edit(edit, task))))
        queued(1)  # the edit first: it gets the task's row, then wants the tenant's
        threads.append(
            in_thread(lambda: answers.append(resume.post(f"/v1/tasks/{task['id']}/resume")))
        )
        queued(2)  # the resume holds the tenant's row shared and waits for the task's
    finally:
        holder.commit()
        holder.close()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a request still waits"
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 503], [answer.content for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 503)
    assert refused.json()["error"]["code"] == "busy"
    assert refused["Retry-After"] == "1"
    made = next(answer for answer in answers if answer.status_code == 200).json()
    edit_made = made["flow_key"] == "first"
    row = Task.objects.get(id=task["id"])
    if edit_made:  # and nothing of the resume
        assert (row.flow_key, row.status) == ("first", TaskStatus.PAUSED)
        assert actions_on(task) == ["task.create", "task.pause", "task.update"]
    else:  # the resume was made, and nothing of the edit
        assert (row.flow_key, row.status) == (None, TaskStatus.ACTIVE)
        assert actions_on(task) == ["task.create", "task.pause", "task.resume"]
    assert row.version == task["version"] + 1  # one change made, not two
    assert Tenant.objects.get(id=tenant.id).uses_flows == edit_made


def test_a_lock_wait_timeout_is_503_busy_and_the_connection_serves_the_next_request():
    tenant = Tenant.objects.create(name="slow")
    task = paused_task(tenant)
    api = client_for(tenant)
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:  # the tenant's row, which a resume reads shared
            cursor.execute("SELECT id FROM tenants WHERE id = %s FOR UPDATE", [tenant.id.hex])
        with short_lock_waits():  # this thread's requests share the test's connection
            answer = api.post(f"/v1/tasks/{task['id']}/resume")
    finally:
        holder.commit()
        holder.close()
    assert answer.status_code == 503, answer.content
    assert (answer.json()["error"]["code"], answer["Retry-After"]) == ("busy", "1")
    assert Task.objects.get(id=task["id"]).status == TaskStatus.PAUSED
    assert api.post(f"/v1/tasks/{task['id']}/resume").status_code == 200
    assert Task.objects.get(id=task["id"]).status == TaskStatus.ACTIVE


@contextmanager
def short_lock_waits() -> Iterator[None]:
    """A row lock waited for over a second is refused (1205) on this thread's connection."""
    with connection.cursor() as cursor:
        cursor.execute("SET SESSION innodb_lock_wait_timeout = 1")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET SESSION innodb_lock_wait_timeout = DEFAULT")


def first_flow_edit(client, task: dict):
    """The tenant's first edit that names a flow."""
    return client.patch(
        f"/v1/tasks/{task['id']}",
        {"flow_key": "first"},
        format="json",
        HTTP_IF_MATCH=f'"{task["version"]}"',
    )


def actions_on(task: dict) -> list[str]:
    entries = AuditEntry.objects.filter(target=task["id"]).order_by("id")
    return list(entries.values_list("action", flat=True))


def test_a_bulk_retrys_batch_refused_a_row_lock_is_run_again_and_the_request_completes(
    tenant, api, add_task, monkeypatch
):
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    task = add_task(max_attempts=3)
    jobs = [add_job(task, minute) for minute in range(4)]
    locked, waits = threading.Event(), set()
    holder = threading.Thread(target=hold_until_waited_twice, args=(jobs[2].id, locked, waits))
    holder.start()
    assert locked.wait(20), "the holder did not lock the job"
    with short_lock_waits():  # the second batch is refused the job's lock at least once
        answer = api.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    holder.join(timeout=30)
    assert len(waits) == 2, "the batch was not refused and run again"
    assert answer.status_code == 200, answer.content
    assert answer.json()["count"] == 4
    assert statuses(*jobs) == ["pending"] * 4
    entries = AuditEntry.objects.filter(tenant_id=tenant.id, action="dlq.retry")
    assert sorted(entry.changes["batch"] for entry in entries) == [1, 2]  # none twice


def hold_until_waited_twice(job_id: int, locked: threading.Event, seen: set) -> None:
    """Lock the job's row; let go once a second transaction waits for it (the first was
    refused and its batch run again)."""
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT id FROM jobs WHERE id = %s FOR UPDATE", [job_id])
        locked.set()
        deadline = time.monotonic() + 20
        while len(seen) < 2 and time.monotonic() < deadline:
            seen.update(waiting_transactions())
            time.sleep(0.15)  # innodb_trx is refreshed only when not read for 0.1 s
    finally:
        holder.commit()
        holder.close()
        connections.close_all()


def waiting_transactions() -> list:
    """The ids of this test database's transactions waiting for a row lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT t.trx_id FROM information_schema.innodb_trx t"
            " JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id"
            " WHERE t.trx_state = 'LOCK WAIT' AND p.db = DATABASE()"
        )
        return [row[0] for row in cursor.fetchall()]
