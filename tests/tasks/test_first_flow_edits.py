"""A tenant's first edits that name a flow, made at the same moment, are all made: an edit
that makes a finished task run again reads its tenant's row shared (is it active?), and
the mark that the tenant uses flows writes that row; taken in that order, two such edits
each held the shared lock and waited for the other's to upgrade it, and MariaDB killed one
as a deadlock (1213). MariaDB only: SQLite's writers never overlap."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections

from scheduler_site.preconditions import ANY_VERSION
from tasks.models import Task, TaskStatus, Tenant
from tasks.serializers import read_task
from tasks.services import task_create, task_update
from tests.conftest import one_off_task
from tests.db_threads import in_thread
from tests.tasks.row_locks import wait_for_lock_waits

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _mariadb_only(db):
    assert connection.vendor == "mysql", "SQLite's writers never overlap (IMMEDIATE)"


def finished_one_off(tenant: Tenant, name: str) -> Task:
    """A one-off task whose run was made: an edit giving it a new run_at runs it again."""
    body = one_off_task(name=name)
    task, _ = task_create(tenant=tenant, actor="test", read_data=lambda: read_task(body))
    Task.objects.filter(id=task.id).update(status=TaskStatus.COMPLETED)
    return task


def run_again_in_a_flow(tenant_id, task_id) -> Callable[[], object]:
    """An edit as a request makes it (a Tenant object of its own): a new run_at, so the
    finished task runs again, and a flow's name, the tenant's first."""
    changes = {"run_at": datetime.now(UTC) + timedelta(days=1), "flow_key": "f"}
    return lambda: task_update(
        tenant=Tenant.objects.get(id=tenant_id),
        actor="test",
        task_id=task_id,
        expected_version=ANY_VERSION,
        changes=changes,
    )


def released_together(tenant: Tenant, work: list[Callable[[], object]]) -> list[BaseException]:
    """Run each callable in a thread of its own while another session holds the tenant's
    row exclusively, until all of them wait on it; then let them go at the same moment.
    The errors they raised."""
    holder = connections.create_connection("default")
    holder.set_autocommit(False)
    with holder.cursor() as cursor:
        cursor.execute("SELECT id FROM tenants WHERE id = %s FOR UPDATE", [tenant.id.hex])
    errors: list[BaseException] = []
    try:
        threads = [in_thread(job, errors) for job in work]
        wait_for_lock_waits(len(work))
        holder.commit()
    finally:
        holder.close()  # never leave the lock held past the test
    for thread in threads:
        thread.join(timeout=60)
    return errors


def test_first_flow_named_edits_that_run_finished_tasks_again_are_all_made():
    tenant = Tenant.objects.create(name="edits", max_tasks=0)  # no quota: a shared read
    tasks = [finished_one_off(tenant, f"once-{n}") for n in range(2)]
    errors = released_together(tenant, [run_again_in_a_flow(tenant.id, t.id) for t in tasks])
    assert errors == []
    assert all(t.flow_key == "f" for t in Task.objects.filter(tenant=tenant))
    assert Tenant.objects.get(id=tenant.id).uses_flows
