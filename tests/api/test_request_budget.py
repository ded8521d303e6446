"""Every tenant API request, reads and edits too, takes a token of the tenant's request
budget (TENANT_REQUEST_RATE, TENANT_REQUEST_BURST): past it, a 429 with Retry-After."""

import pytest


@pytest.fixture
def budget_of_three(settings):
    settings.TENANT_REQUEST_RATE, settings.TENANT_REQUEST_BURST = 1, 3


def test_reads_past_the_budget_are_429_with_retry_after(api, budget_of_three):
    codes = [api.get("/v1/tasks").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = api.get("/v1/tasks")
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1


def test_edits_take_from_the_same_budget(api, make_task, budget_of_three):
    task = make_task()
    path = f"/v1/tasks/{task['id']}"
    api.get(path)
    api.patch(path, {"name": "b"}, format="json", HTTP_IF_MATCH='"1"')
    assert api.delete(path, HTTP_IF_MATCH="*").status_code == 429


def test_one_tenants_budget_leaves_another_alone(api, other_api, budget_of_three):
    assert [api.get("/v1/tasks").status_code for _ in range(4)][-1] == 429
    assert other_api.get("/v1/tasks").status_code == 200


def test_a_budget_of_zero_is_no_limit(api, settings):
    settings.TENANT_REQUEST_RATE, settings.TENANT_REQUEST_BURST = 0, 1
    assert {api.get("/v1/tasks").status_code for _ in range(5)} == {200}
