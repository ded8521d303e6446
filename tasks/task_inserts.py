"""A single create's task in one INSERT statement that reads its tenant's row too, without
the ORM's insert compiler (scheduler_site/plain_inserts.py; a batch's tasks go in through
its insert_many)."""

from __future__ import annotations

from django.db import connection

from scheduler_site.plain_inserts import db_values, insert_head
from tasks.models import Task
from tasks.tenant_cache import active_tenant_row, tenant_pk


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
    params.append(tenant_pk(task.tenant_id))
    sql = f"{insert_head(Task, fields)} SELECT {values} FROM {active_tenant_row()}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        made = cursor.rowcount == 1
    task._state.adding, task._state.db = not made, connection.alias
    return made
