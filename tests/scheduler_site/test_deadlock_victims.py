"""A request the database refuses a lock is answered 503 `busy` with Retry-After (which
the SDK sends again), never a 500, and writes nothing; a bulk action runs a batch undone by
a deadlock again, and waits out a lock only once.

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
from dataclasses import dataclass

import pytest
from django.db import connection, connections, transaction

from audit.models import AuditEntry
from jobs import bulk_actions
from jobs.models import Job
from tasks.models import Task, TaskStatus, Tenant
from tests.api.bulk_jobs import add_job
from tests.conftest import client_for, cron_task
from tests.db_threads import in_thread
from tests.tasks.row_locks import lock_waits, wait_for_lock_waits, waiting_transactions

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
    assert lock_waits() >= count, "the sessions did not queue for the row"


def test_a_deadlock_victim_is_answered_503_busy_and_the_other_request_is_made():
    tenant = Tenant.objects.create(name="races")
    task = paused_task(tenant)
    edit, resume = client_for(tenant), client_for(tenant)
    answers, errors, threads = [], [], []
    holder = connections.create_connection("default")
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:  # the task's row, until both requests wait for it
            cursor.execute(
                "SELECT id FROM tasks WHERE id = %s FOR UPDATE", [uuid.UUID(task["id"]).hex]
            )
        threads.append(in_thread(lambda: answers.append(first_flow_edit(edit, task)), errors))
        queued(1)  # the edit first: it gets the task's row, then wants the tenant's
        resume_it = lambda: answers.append(resume.post(f"/v1/tasks/{task['id']}/resume"))  # noqa: E731
        threads.append(in_thread(resume_it, errors))
        queued(2)  # the resume holds the tenant's row shared and waits for the task's
    finally:
        holder.commit()
        holder.close()
        for thread in threads:
            thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a request still waits"
    assert errors == []
    codes = sorted(answer.status_code for answer in answers)
    assert codes == [200, 503], [answer.content for answer in answers]
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
        cursor.execute("SELECT @@SESSION.innodb_lock_wait_timeout")
        (before,) = cursor.fetchone()
        cursor.execute("SET SESSION innodb_lock_wait_timeout = 1")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET SESSION innodb_lock_wait_timeout = %s", [before])


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


@pytest.fixture
def two_batches(add_task, monkeypatch) -> tuple:
    """A task with four dead jobs, which a bulk retry takes two at a time; their ids in the
    batches' order."""
    monkeypatch.setattr(bulk_actions, "BATCH_SIZE", 2)
    task = add_task(max_attempts=3)
    for minute in range(4):
        add_job(task, minute)
    return task, list(Job.objects.filter(task=task).order_by("id").values_list("id", flat=True))


def test_a_bulk_retrys_batch_undone_by_a_deadlock_is_run_again_and_the_request_completes(
    tenant, api, add_task, two_batches
):
    task, ids = two_batches
    ballast = add_task()  # the other session's writes: MariaDB undoes the lighter side
    for minute in range(40):
        add_job(ballast, minute, status="succeeded")
    cycle = Cycle(first=ids[2], second=ids[3], ballast=ballast.id, request=session_id())
    locked, errors = threading.Event(), []
    holder = in_thread(lambda: lock_against_the_batch(cycle, locked), errors)
    try:
        assert locked.wait(20), "the other session did not lock the job"
        answer = api.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    finally:
        holder.join(timeout=30)
    assert not holder.is_alive(), "the other session still waits"
    assert errors == []  # it closed the cycle and was not the one undone: the batch was
    assert answer.status_code == 200, answer.content
    assert answer.json()["count"] == 4
    assert set(Job.objects.filter(task=task).values_list("status", flat=True)) == {"pending"}
    entries = AuditEntry.objects.filter(tenant_id=tenant.id, action="dlq.retry")
    assert sorted(entry.changes["batch"] for entry in entries) == [1, 2]  # none twice


def test_a_bulk_retrys_batch_whose_lock_wait_runs_out_is_not_waited_again(api, two_batches):
    task, ids = two_batches
    locked, done, waits = threading.Event(), threading.Event(), set()
    errors: list = []
    holder = in_thread(lambda: hold_and_count_waits(ids[2], locked, done, waits), errors)
    try:
        assert locked.wait(20), "the other session did not lock the job"
        with short_lock_waits():
            answer = api.post("/v1/dlq/retry", {"task_id": str(task.id)}, format="json")
    finally:
        done.set()
        holder.join(timeout=30)
    assert not holder.is_alive() and errors == []
    assert answer.status_code == 503, answer.content
    assert answer.json()["error"]["code"] == "busy"
    assert len(waits) == 1  # one wait, not five
    by_id = dict(Job.objects.filter(task=task).values_list("id", "status"))
    assert [by_id[job_id] for job_id in ids] == ["pending", "pending", "dead", "dead"]


@dataclass(frozen=True)
class Cycle:
    first: uuid.UUID  # the job the batch locks first (its ids in order)
    second: uuid.UUID  # ... and second
    ballast: uuid.UUID  # a task whose jobs the other session writes, to weigh more
    request: int  # the request's session (its connection id)


def lock_against_the_batch(cycle: Cycle, locked: threading.Event) -> None:
    """In a session of its own: write the ballast's jobs, lock the job the batch locks
    second; once the batch waits for it holding the first, ask for the first: a cycle,
    which MariaDB breaks by undoing the lighter transaction, the batch's."""
    with connection.cursor() as cursor:  # a missed cycle fails the test, not hangs it
        cursor.execute("SET SESSION innodb_lock_wait_timeout = 10")
    with transaction.atomic():
        Job.objects.filter(task_id=cycle.ballast).update(error="ballast")
        lock_job(cycle.second)
        locked.set()
        wait_for_a_wait_after_a_write(cycle.request)
        lock_job(cycle.first)


def wait_for_a_wait_after_a_write(session: int, timeout: float = 20) -> None:
    """Until `session` waits for a row lock having changed a row (the batch's first job)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_mysql_thread_id"
                " = %s AND trx_state = 'LOCK WAIT' AND trx_rows_modified >= 1",
                [session],
            )
            if cursor.fetchone()[0]:
                return
        time.sleep(0.15)  # innodb_trx is refreshed only when not read for 0.1 s
    raise AssertionError("the batch did not wait for the second job holding the first")


def session_id() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT CONNECTION_ID()")
        return cursor.fetchone()[0]


def hold_and_count_waits(job_id, locked: threading.Event, done: threading.Event, seen: set):
    """Lock the job's row until `done`, noting each transaction that waited for it."""
    with transaction.atomic():
        lock_job(job_id)
        locked.set()
        while not done.is_set():
            seen.update(waiting_transactions())
            time.sleep(0.15)  # innodb_trx is refreshed only when not read for 0.1 s


def lock_job(job_id) -> None:
    list(Job.objects.select_for_update().filter(id=job_id).values_list("id"))
