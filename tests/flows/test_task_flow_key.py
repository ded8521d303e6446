"""A task names its flow with `flow_key` on create, PATCH and batch; the tenant is marked
as using flows in the same transaction."""

import pytest

from tasks.models import Task, Tenant
from tests.conftest import cron_task

pytestmark = pytest.mark.django_db


def uses_flows(tenant) -> bool:
    return Tenant.objects.get(id=tenant.id).uses_flows


def test_a_task_created_with_a_flow_key_shows_it(api):
    response = api.post("/v1/tasks", cron_task(flow_key="crm"), format="json")
    assert response.status_code == 201
    assert response.json()["flow_key"] == "crm"
    assert api.get(f"/v1/tasks/{response.json()['id']}").json()["flow_key"] == "crm"


def test_a_task_without_one_shows_null_and_leaves_the_tenant_unmarked(api, make_task, tenant):
    assert make_task()["flow_key"] is None
    assert not uses_flows(tenant)


def test_a_flow_key_that_names_no_flow_is_taken(api, tenant):
    response = api.post("/v1/tasks", cron_task(flow_key="host:never.made:8080"), format="json")
    assert response.status_code == 201


def test_creating_a_task_with_a_flow_key_marks_the_tenant(make_task, tenant):
    make_task(flow_key="crm")
    assert uses_flows(tenant)


@pytest.mark.parametrize(
    "value", ["", "bad key", "x" * 101, 5, True, ["crm"], "é", "crm\n", "..", "."]
)
def test_a_bad_flow_key_is_refused_naming_it(api, value):
    response = api.post("/v1/tasks", cron_task(flow_key=value), format="json")
    assert response.status_code == 400
    assert "flow_key" in response.json()["error"]["fields"]


def test_a_refused_create_does_not_mark_the_tenant(api, tenant):
    api.post("/v1/tasks", cron_task(flow_key="crm", cron="not a cron"), format="json")
    assert not uses_flows(tenant)


def patch(api, task: dict, **changes):
    return api.patch(
        f"/v1/tasks/{task['id']}", changes, format="json", HTTP_IF_MATCH=f'"{task["version"]}"'
    )


def test_patch_sets_a_flow_key_marks_the_tenant_and_moves_the_version(api, make_task, tenant):
    task = make_task()
    response = patch(api, task, flow_key="crm")
    assert response.status_code == 200
    assert response.json()["flow_key"] == "crm"
    assert response.json()["version"] == task["version"] + 1
    assert response["ETag"] == f'"{task["version"] + 1}"'
    assert uses_flows(tenant)


def test_patch_with_null_clears_the_flow_key(api, make_task):
    task = make_task(flow_key="crm")
    assert patch(api, task, flow_key=None).json()["flow_key"] is None
    assert Task.objects.get(id=task["id"]).flow_key is None


def test_patch_with_a_stale_version_changes_no_flow_key(api, make_task):
    task = make_task()
    patch(api, task, name="renamed")
    assert patch(api, task, flow_key="crm").status_code == 412
    assert Task.objects.get(id=task["id"]).flow_key is None


def test_patch_refuses_a_bad_flow_key_naming_it(api, make_task):
    response = patch(api, make_task(), flow_key="a b")
    assert response.status_code == 400
    assert "flow_key" in response.json()["error"]["fields"]


def test_the_flow_key_change_is_in_the_tasks_audit_entry(api, make_task):
    from audit.models import AuditEntry

    task = make_task()
    patch(api, task, flow_key="crm")
    entry = AuditEntry.objects.get(action="task.update", target=task["id"])
    assert entry.changes == {"flow_key": {"old": None, "new": "crm"}}


def test_a_batch_takes_flow_keys_and_marks_the_tenant(api, tenant):
    body = {"tasks": [cron_task(flow_key="crm"), cron_task()]}
    results = api.post("/v1/tasks/batch", body, format="json").json()["results"]
    assert [r["task"]["flow_key"] for r in results] == ["crm", None]
    assert uses_flows(tenant)


def test_a_batch_item_with_a_bad_flow_key_is_refused_alone(api, tenant):
    body = {"tasks": [cron_task(flow_key="no good"), cron_task()]}
    results = api.post("/v1/tasks/batch", body, format="json").json()["results"]
    assert results[0]["status"] == 400 and "flow_key" in results[0]["error"]["fields"]
    assert results[1]["status"] == 201
    assert not uses_flows(tenant)
