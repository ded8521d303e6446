"""An entry and its change commit or roll back together: a change without its entry, or an
entry without its change, cannot be left behind, whichever of the two fails."""

import pytest
from django.db import DatabaseError, connection, transaction

from audit.models import AuditEntry
from audit.record import record
from tasks.models import Task, TenantSecret
from tasks.services import task_pause
from tests.conftest import cron_task

REFUSE_AUDIT = {
    "mysql": "CREATE TRIGGER audit_refused BEFORE INSERT ON audit_entries FOR EACH ROW "
    "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'audit insert refused'",
    "sqlite": "CREATE TRIGGER audit_refused BEFORE INSERT ON audit_entries "
    "BEGIN SELECT RAISE(ABORT, 'audit insert refused'); END",
}


@pytest.fixture
def failing_audit_insert(transactional_db):
    """Every insert into the audit log fails in the database itself (a trigger); DDL
    commits on MariaDB, hence a test database emptied after, not rolled back."""
    with connection.cursor() as cursor:
        cursor.execute(REFUSE_AUDIT[connection.vendor])
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER audit_refused")


def test_a_failure_after_the_change_rolls_back_the_change_and_its_entry(add_task):
    task = add_task()
    with pytest.raises(DatabaseError), transaction.atomic():
        task_pause(tenant=task.tenant, actor="jti-1", task_id=task.id, expected_version=None)
        assert AuditEntry.objects.filter(action="task.pause").exists()  # written with it
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")  # the transaction fails here
    assert Task.objects.get(id=task.id).status == "active"
    assert not AuditEntry.objects.exists()


def test_a_failing_entry_rolls_back_a_create(failing_audit_insert, api):
    response = api.post("/v1/tasks", cron_task(), format="json")
    assert response.status_code == 500
    assert not Task.objects.exists()


def test_a_failing_entry_rolls_back_an_update(failing_audit_insert, api, tenant, add_task):
    task = add_task(name="before")
    response = api.patch(
        f"/v1/tasks/{task.id}", {"name": "after"}, format="json", HTTP_IF_MATCH="*"
    )
    assert response.status_code == 500
    assert Task.objects.get(id=task.id).name == "before"


def test_a_failing_entry_rolls_back_a_secret_put(failing_audit_insert, api):
    body = {"value": "Bearer x", "allowed_hosts": ["a.example.com"]}
    assert api.put("/v1/secrets/crm", body, format="json").status_code == 500
    assert not TenantSecret.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_an_entry_is_refused_outside_a_transaction(tenant):
    with pytest.raises(RuntimeError, match="outside the change's transaction"):
        record(tenant_id=tenant.id, actor="jti-1", action="task.update", target="t1")
    assert not AuditEntry.objects.exists()
