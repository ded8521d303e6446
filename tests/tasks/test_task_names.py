"""Tasks by exact name (tasks/task_names.py): found through the index (tenant, name), so an
upsert or `?name=` costs a lookup, not a scan of the tenant's tasks; case still counts."""

from django.core.management import call_command
from django.db import connection

from scheduler_site.ids import new_id
from tasks.models import Task
from tasks.task_names import with_name

MANY = 300


def test_the_models_and_the_migrations_agree(db):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def chosen_index(query) -> str | None:
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":  # its plan names the index in a line of text
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            return "tasks_tenant_name_idx" if "tasks_tenant_name_idx" in plan else plan
        cursor.execute(f"EXPLAIN {sql}", params)
        columns = [column[0] for column in cursor.description]
        return dict(zip(columns, cursor.fetchone(), strict=True))["key"]


def test_a_task_of_a_name_is_found_through_the_tenant_name_index(make_task, tenant):
    model = Task.objects.get(id=make_task()["id"])
    fields = {field.attname: getattr(model, field.attname) for field in Task._meta.fields}
    copies = [Task(**fields | {"id": new_id(), "name": f"task-{number}"}) for number in range(MANY)]
    Task.objects.bulk_create(copies)
    query = with_name(Task.objects.filter(tenant=tenant), "task-7")
    assert [task.name for task in query] == ["task-7"]
    assert chosen_index(query) == "tasks_tenant_name_idx"


def test_a_name_is_matched_with_its_case(make_task, tenant):
    make_task(name="Nightly")
    assert not with_name(Task.objects.filter(tenant=tenant), "nightly").exists()
    assert with_name(Task.objects.filter(tenant=tenant), "Nightly").count() == 1


def test_a_name_is_matched_with_its_trailing_spaces(api, make_task):
    make_task(name="nightly")
    assert api.get("/v1/tasks?name=nightly%20").json()["results"] == []
    assert len(api.get("/v1/tasks?name=nightly").json()["results"]) == 1
