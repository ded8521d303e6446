"""Every task route with another tenant's task is a 404, and nothing changes."""

import pytest

from tasks.models import Task

ROUTES = [
    ("get", "/v1/tasks/{id}", None),
    ("patch", "/v1/tasks/{id}", {"name": "stolen"}),
    ("delete", "/v1/tasks/{id}", None),
    ("post", "/v1/tasks/{id}/pause", None),
    ("post", "/v1/tasks/{id}/resume", None),
]


@pytest.mark.parametrize("method, route, body", ROUTES)
@pytest.mark.parametrize("if_match", [None, '"1"', "*"])
def test_other_tenants_task_is_404(other_api, make_task, method, route, body, if_match):
    task = make_task()
    headers = {"HTTP_IF_MATCH": if_match} if if_match else {}
    response = getattr(other_api, method)(
        route.format(id=task["id"]), body, format="json", **headers
    )
    assert response.status_code == 404
    stored = Task.objects.get(id=task["id"])
    assert (stored.status, stored.version, stored.name) == ("active", 1, "nightly")


def test_other_tenants_tasks_are_not_listed(other_api, make_task):
    make_task()
    assert other_api.get("/v1/tasks").json()["results"] == []


def test_tenant_id_in_the_body_is_rejected(api, other_tenant):
    response = api.post(
        "/v1/tasks",
        {"cron": "* * * * *", "url": "https://93.184.216.34/", "tenant_id": str(other_tenant.id)},
        format="json",
    )
    assert response.status_code == 400
    assert not Task.objects.filter(tenant=other_tenant).exists()


def test_tenant_id_in_a_header_is_ignored(api, tenant, other_tenant):
    response = api.post(
        "/v1/tasks",
        {"cron": "* * * * *", "url": "https://93.184.216.34/"},
        format="json",
        HTTP_X_TENANT_ID=str(other_tenant.id),
    )
    assert response.status_code == 201
    assert Task.objects.get(id=response.json()["id"]).tenant_id == tenant.id


def test_tenant_id_in_the_query_is_refused_and_creates_nothing(api, other_tenant):
    # Like any query parameter a route does not take: never read as choosing a tenant.
    response = api.post(
        f"/v1/tasks?tenant_id={other_tenant.id}",
        {"cron": "* * * * *", "url": "https://93.184.216.34/"},
        format="json",
    )
    assert response.status_code == 400 and "tenant_id" in response.json()["error"]["fields"]
    assert not Task.objects.exists()
