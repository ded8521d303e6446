"""What the cached tenant must not decide: a change made by another process within the
cached second (written here as raw SQL, as that process would) is seen by every write that
makes a task run or hands out the signing secret, and a finished one-off paused again counts
toward the task quota's bound."""

from django.db import connection

from tasks.models import Task, Tenant
from tasks.quotas import held_tasks
from tests.conftest import PUBLIC_URL, cron_task


def written_elsewhere(tenant: Tenant, column: str, value) -> None:
    tenant_id = Tenant._meta.pk.get_db_prep_value(tenant.id, connection)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE tenants SET {column} = %s WHERE id = %s", [value, tenant_id])


def test_a_create_just_after_a_stop_elsewhere_is_refused(api, tenant):
    api.get("/v1/tasks")  # the tenant's row is now cached, active
    written_elsewhere(tenant, "is_active", False)
    answer = api.post("/v1/tasks", cron_task(), format="json")
    assert answer.status_code in (401, 409), answer.content
    assert not Task.objects.filter(tenant=tenant).exists()


def test_a_create_just_after_a_stop_elsewhere_is_refused_without_a_task_quota(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=0)  # unlimited: no quota lock
    api.get("/v1/tasks")
    written_elsewhere(tenant, "is_active", False)
    assert api.post("/v1/tasks", cron_task(), format="json").status_code in (401, 409)
    assert not Task.objects.filter(tenant=tenant).exists()


def test_an_upsert_just_after_a_stop_elsewhere_is_refused_without_a_task_quota(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=0)
    api.get("/v1/tasks")
    written_elsewhere(tenant, "is_active", False)
    assert api.put("/v1/tasks/by-name/n", cron_task(name="n"), format="json").status_code in (
        401,
        409,
    )
    assert not Task.objects.filter(tenant=tenant).exists()


def test_a_resume_just_after_a_stop_elsewhere_leaves_the_task_suspended(api, tenant):
    made = api.post("/v1/tasks", cron_task(), format="json").json()
    api.post(f"/v1/tasks/{made['id']}/pause")
    written_elsewhere(tenant, "is_active", False)
    answer = api.post(f"/v1/tasks/{made['id']}/resume")
    assert answer.status_code in (200, 401), answer.content
    assert Task.objects.get(id=made["id"]).status in ("suspended", "paused")


def test_the_signing_secret_read_just_after_a_rotation_elsewhere_is_the_new_one(api, tenant):
    api.get("/v1/tasks")
    written_elsewhere(tenant, "signing_secret", "whsec_rotated_elsewhere")
    assert api.get("/v1/signing-secret").json()["signing_secret"] == "whsec_rotated_elsewhere"


def test_finished_one_offs_paused_again_count_toward_the_task_quota(api, tenant, make_job):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=3)
    finished = [make_job(PUBLIC_URL).task for _ in range(2)]  # complete, their jobs waiting
    assert api.post("/v1/tasks", cron_task(), format="json").status_code == 201  # bound: 1
    for task in finished:
        assert api.post(f"/v1/tasks/{task.id}/pause").status_code == 200
    assert held_tasks(tenant) == 3  # at the limit, though the bound was counted at 1
    answers = [api.post("/v1/tasks", cron_task(name=f"more-{n}"), format="json") for n in range(2)]
    assert [answer.status_code for answer in answers] == [403, 403]
