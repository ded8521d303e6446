"""A secret names the hosts it may be sent to; a task aimed elsewhere is refused with a 400
on `secret_ref` at create, batch create and PATCH."""

import pytest

from tasks.models import Task, TenantSecret
from tasks.secret_hosts import MAX_ALLOWED_HOSTS
from tests.conftest import PUBLIC_URL, cron_task

pytestmark = pytest.mark.django_db
OTHER_URL = "https://93.184.216.35/hook"


def put(api, hosts=None, name="crm"):
    body = {"value": "Bearer x"} if hosts is None else {"value": "Bearer x", "allowed_hosts": hosts}
    return api.put(f"/v1/secrets/{name}", body, format="json")


def error_fields(response, status: int = 400) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]["fields"]


def test_a_new_secret_without_allowed_hosts_is_400_naming_it(api):
    assert "allowed_hosts" in error_fields(put(api))
    assert not TenantSecret.objects.exists()


@pytest.mark.parametrize(
    "hosts",
    [
        [],
        "example.com",
        ["*.example.com"],
        ["Example.com"],
        ["exa mple.com"],
        ["-bad.example.com"],
        [7],
        ["1.2.3"],
        [f"h{n}.example.com" for n in range(MAX_ALLOWED_HOSTS + 1)],
    ],
)
def test_bad_allowed_hosts_are_400_naming_them(api, hosts):
    assert "allowed_hosts" in error_fields(put(api, hosts))
    assert not TenantSecret.objects.exists()


def test_allowed_hosts_are_stored_in_one_spelling(api):
    response = put(api, ["api.example.com.", "[2001:DB8::0001]", "api.example.com"])
    assert response.status_code == 201
    assert response.json()["allowed_hosts"] == ["api.example.com", "2001:db8::1"]


def test_a_replaced_secret_keeps_its_hosts_unless_new_ones_are_given(api):
    put(api, ["a.example.com"])
    assert put(api).json()["allowed_hosts"] == ["a.example.com"]
    assert put(api, ["b.example.com"]).json()["allowed_hosts"] == ["b.example.com"]


def test_a_task_aimed_at_an_allowed_host_is_created(api):
    put(api, ["93.184.216.34"])
    assert api.post("/v1/tasks", cron_task(secret_ref="crm"), format="json").status_code == 201


def test_a_task_aimed_at_a_host_its_secret_does_not_allow_is_400(api):
    put(api, ["93.184.216.34"])
    response = api.post("/v1/tasks", cron_task(url=OTHER_URL, secret_ref="crm"), format="json")
    assert "93.184.216.35" in error_fields(response)["secret_ref"]
    assert not Task.objects.exists()


def test_a_task_naming_no_secret_of_its_tenant_is_400(api, other_api):
    put(other_api, ["93.184.216.34"])  # another tenant's secret of that name does not count
    response = api.post("/v1/tasks", cron_task(secret_ref="crm"), format="json")
    assert "secret_ref" in error_fields(response)


def test_a_batch_item_aimed_at_a_host_its_secret_does_not_allow_is_400(api):
    put(api, ["93.184.216.34"])
    items = [cron_task(secret_ref="crm"), cron_task(url=OTHER_URL, secret_ref="crm")]
    results = api.post("/v1/tasks/batch", {"tasks": items}, format="json").json()["results"]
    assert [item["status"] for item in results] == [201, 400]
    assert "secret_ref" in results[1]["error"]["fields"]
    assert Task.objects.count() == 1


def patch(api, task: dict, changes: dict):
    return api.patch(f"/v1/tasks/{task['id']}", changes, format="json", HTTP_IF_MATCH='"1"')


def test_a_patch_of_only_the_url_to_a_host_the_secret_does_not_allow_is_400(api, make_task):
    put(api, ["93.184.216.34"])
    task = make_task(secret_ref="crm")
    assert "secret_ref" in error_fields(patch(api, task, {"url": OTHER_URL}))
    assert Task.objects.get(id=task["id"]).url == PUBLIC_URL


def test_a_patch_naming_a_secret_that_does_not_allow_the_host_is_400(api, make_task):
    put(api, ["93.184.216.35"], name="other")
    task = make_task()
    assert "secret_ref" in error_fields(patch(api, task, {"secret_ref": "other"}))


def test_narrowing_the_hosts_of_a_secret_in_use_is_allowed(api, make_task):
    put(api, ["93.184.216.34"])
    make_task(secret_ref="crm")
    assert put(api, ["93.184.216.35"]).status_code == 200
