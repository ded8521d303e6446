"""Per-tenant quotas: count quotas are 403 naming the quota; the creation rate is 429."""

import time

import pytest

from tasks.models import Tenant
from tests.conftest import cron_task


def set_quotas(tenant, **quotas) -> None:
    Tenant.objects.filter(id=tenant.id).update(**quotas)


def create(api, **fields):
    return api.post("/v1/tasks", cron_task(**fields), format="json")


def test_a_tenant_at_its_task_quota_gets_403_naming_it(api, tenant):
    set_quotas(tenant, max_tasks=2)
    assert [create(api).status_code for _ in range(2)] == [201, 201]
    refused = create(api)
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert (error["code"], error["fields"]) == ("quota_exceeded", {"quota": "max_tasks"})


def test_deleted_tasks_free_their_place(api, tenant):
    set_quotas(tenant, max_tasks=1)
    task = create(api).json()
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"')
    assert create(api).status_code == 201


def test_paused_tasks_keep_their_place(api, tenant):
    set_quotas(tenant, max_tasks=1)
    task = create(api).json()
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert create(api).status_code == 403


def test_the_default_quota_comes_from_the_settings(api, settings):
    settings.TENANT_MAX_TASKS = 1
    assert [create(api).status_code for _ in range(2)] == [201, 403]


def test_zero_means_unlimited(api, tenant, settings):
    settings.TENANT_MAX_TASKS = 1
    set_quotas(tenant, max_tasks=0)
    assert [create(api).status_code for _ in range(3)] == [201, 201, 201]


def test_a_tenant_at_its_secret_quota_gets_403_but_may_replace_one(api, tenant):
    set_quotas(tenant, max_secrets=1)
    assert (
        api.put(
            "/v1/secrets/a", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json"
        ).status_code
        == 201
    )
    refused = api.put(
        "/v1/secrets/b", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json"
    )
    assert refused.status_code == 403
    assert refused.json()["error"]["fields"] == {"quota": "max_secrets"}
    assert api.put("/v1/secrets/a", {"value": "y"}, format="json").status_code == 200


def test_creations_beyond_the_burst_get_429_with_retry_after(api, tenant):
    set_quotas(tenant, create_rate=1, create_burst=3)
    codes = [create(api).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    refused = create(api)
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1


def test_the_bucket_refills_at_the_rate(api, tenant):
    set_quotas(tenant, create_rate=5, create_burst=1)
    assert [create(api).status_code for _ in range(2)] == [201, 429]
    time.sleep(0.25)
    assert create(api).status_code == 201


def test_a_replayed_creation_takes_no_token(api, tenant):
    set_quotas(tenant, create_rate=1, create_burst=1)
    first = api.post("/v1/tasks", cron_task(), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = api.post("/v1/tasks", cron_task(), format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"


def test_one_tenants_bucket_leaves_another_alone(api, other_api, tenant):
    set_quotas(tenant, create_rate=1, create_burst=1)
    assert [create(api).status_code for _ in range(2)] == [201, 429]
    assert create(other_api).status_code == 201


@pytest.mark.parametrize("limit", [1, 5])
def test_the_secrets_list_honours_limit_and_pages(api, limit):
    for n in range(7):
        api.put(
            f"/v1/secrets/s{n}", {"value": "x", "allowed_hosts": ["93.184.216.34"]}, format="json"
        )
    names, url = [], f"/v1/secrets?limit={limit}"
    while url:
        page = api.get(url).json()
        assert len(page["results"]) <= limit
        names += [secret["name"] for secret in page["results"]]
        url = page["next"]
    assert names == [f"s{n}" for n in range(7)]


def test_a_refused_creation_is_charged_to_the_rate(api, tenant):
    set_quotas(tenant, create_rate=1, create_burst=2)
    refused = [api.post("/v1/tasks", cron_task(cron="nope"), format="json") for _ in range(2)]
    assert [r.status_code for r in refused] == [400, 400]
    assert create(api).status_code == 429


def test_a_creation_the_quota_refuses_is_not_charged_to_the_rate(api, tenant):
    set_quotas(tenant, max_tasks=1, create_rate=1, create_burst=2)
    assert [create(api).status_code for _ in range(2)] == [201, 403]
    set_quotas(tenant, max_tasks=10)
    assert create(api).status_code == 201
