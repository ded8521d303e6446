"""New tasks in one INSERT statement, without the ORM's insert compiler
(scheduler_site/plain_inserts.py): a batch's (as many as the backend takes at once: all 500
on MariaDB), and a single create's, which reads its tenant's row in the same statement."""

from __future__ import annotations

from django.db import connection

from scheduler_site.plain_inserts import db_values, insert_head, insert_many
from scheduler_site.sqltools import share_lock
from tasks.models import Task, Tenant


def insert_tasks(tasks: list[Task]) -> None:
    """Insert prepared tasks (their ids set by task_prepare) in the caller's transaction."""
    insert_many(tasks)


def insert_task_if_active(task: Task) -> bool:
    """Insert one prepared task only if its tenant is active by its row, read by the same
    statement (`INSERT ... SELECT ... FROM tenants`): one round trip where a read of the
    row and an insert were two. Returns False, inserting nothing, for a stopped tenant.

    The row is read under a shared lock: at READ COMMITTED a plain read would see a stop
    not yet committed as active, and the task would be made after the stop suspended the
    tenant's tasks. A stop in progress makes the insert wait for it instead."""
    fields = Task._meta.concrete_fields
    values = ", ".join(["%s"] * len(fields))
    params = db_values(task, fields)
    params.append(Tenant._meta.pk.get_db_prep_value(task.tenant_id, connection))
    sql = f"{insert_head(Task, fields)} SELECT {values} FROM {_active_tenant()}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        made = cursor.rowcount == 1
    task._state.adding, task._state.db = not made, connection.alias
    return made


def _active_tenant() -> str:
    quote = connection.ops.quote_name
    pk, active = Tenant._meta.pk.column, Tenant._meta.get_field("is_active").column
    where = f"{quote(Tenant._meta.db_table)} WHERE {quote(pk)} = %s AND {quote(active)}"
    return f"{where}{share_lock()}"
