"""A request the database rolls back to break a deadlock is answered 409 `busy` with
Retry-After, never a 500: it wrote nothing and may be sent again.

The deadlock is a real one, made through the API: a resume takes the tenant's row shared,
then the task's; a tenant's first flow-named edit takes the task's row, then writes the
tenant's (the mark that it uses flows). With the edit first in the queue for the task's
row and the resume holding the tenant's, each waits for the other. MariaDB only: SQLite's
writers never overlap."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from tasks.models import Task, TaskStatus, Tenant
from tests.conftest import client_for, cron_task
from tests.tasks.row_locks import wait_for_lock_waits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only(db):
    assert connection.vendor == "mysql", "SQLite's writers never overlap (IMMEDIATE)"


def paused_task(tenant: Tenant) -> dict:
    api = client_for(tenant)
    task = api.post("/v1/tasks", cron_task(), format="json").json()
    paused = api.post(f"/v1/tasks/{task['id']}/pause")
    assert paused.status_code == 200, paused.content
    return paused.json()


def in_thread(send: Callable[[], object], answers: list) -> threading.Thread:
    def run() -> None:
        try:
            answers.append(send())
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_deadlock_victim_is_answered_409_busy_and_the_other_request_is_made():
    tenant = Tenant.objects.create(name="races")
    task = paused_task(tenant)
    edit, resume = client_for(tenant), client_for(tenant)
    holder = connections.create_connection("default")
    holder.set_autocommit(False)
    with holder.cursor() as cursor:  # the task's row, until both requests wait for it
        cursor.execute("SELECT id FROM tasks WHERE id = %s FOR UPDATE", [task["id"]])
    answers: list = []
    try:
        threads = [
            in_thread(
                lambda: edit.patch(
                    f"/v1/tasks/{task['id']}",
                    {"flow_key": "first"},
                    format="json",
                    HTTP_IF_MATCH=f'"{task["version"]}"',
                ),
                answers,
            )
        ]
        wait_for_lock_waits(1)
        threads.append(in_thread(lambda: resume.post(f"/v1/tasks/{task['id']}/resume"), answers))
        wait_for_lock_waits(2)
    finally:
        holder.commit()
        holder.close()
    for thread in threads:
        thread.join(timeout=60)
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [200, 409], [answer.content for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 409)
    assert refused.json()["error"]["code"] == "busy"
    assert refused["Retry-After"] == "1"
    made = next(answer for answer in answers if answer.status_code == 200).json()
    row = Task.objects.get(id=task["id"])
    edit_made = made["flow_key"] == "first"
    if edit_made:  # and nothing of the resume
        assert (row.flow_key, row.status) == ("first", TaskStatus.PAUSED)
    else:  # the resume was made, and nothing of the edit
        assert (row.flow_key, row.status) == (None, TaskStatus.ACTIVE)
    assert Tenant.objects.get(id=tenant.id).uses_flows == edit_made
