"""POST /v1/tasks/batch: each item as a single create, new tasks in one insert."""

import math

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEntry
from tasks.models import Task, Tenant
from tests.conftest import cron_task


def batch(api, *tasks):
    return api.post("/v1/tasks/batch", {"tasks": list(tasks)}, format="json")


def statuses(response) -> list[int]:
    return [result["status"] for result in response.json()["results"]]


def test_every_item_is_created_and_answered_in_order(api, tenant):
    response = batch(api, cron_task(name="a"), cron_task(name="b"), cron_task(name="c"))
    assert response.status_code == 200
    results = response.json()["results"]
    assert [(r["index"], r["status"], r["task"]["name"]) for r in results] == [
        (0, 201, "a"),
        (1, 201, "b"),
        (2, 201, "c"),
    ]
    stored = Task.objects.get(id=results[0]["task"]["id"])
    assert stored.tenant_id == tenant.id and stored.next_run_at is not None


def test_a_refused_item_gets_its_own_error_and_the_others_are_created(api):
    response = batch(api, cron_task(name="ok"), cron_task(cron="not cron"), "not an object")
    assert statuses(response) == [201, 400, 400]
    assert "cron" in response.json()["results"][1]["error"]["fields"]
    assert Task.objects.count() == 1


def test_a_url_refused_in_one_item_is_refused_in_every_item_that_repeats_it(api):
    blocked = "http://127.0.0.1:22/hook"
    items = [cron_task(name=f"ok-{n}") for n in range(3)]
    items += [cron_task(name=f"bad-{n}", url=blocked) for n in range(2)]
    response = batch(api, *items)
    assert statuses(response) == [201, 201, 201, 400, 400]
    assert all("url" in r["error"]["fields"] for r in response.json()["results"][3:])


def test_an_allowed_host_on_another_port_is_checked_again_in_the_same_batch(api):
    allowed = cron_task(name="ok")["url"]  # a public address on 443
    on_22 = allowed.replace("https://93.184.216.34/", "https://93.184.216.34:22/")
    assert on_22 != allowed
    response = batch(api, cron_task(name="ok"), cron_task(name="ssh", url=on_22))
    assert statuses(response) == [201, 400]


def test_the_new_tasks_are_inserted_in_one_statement(api):
    """One on MariaDB; SQLite caps a statement's parameters, so as few as it allows."""
    with CaptureQueriesContext(connection) as queries:
        batch(api, *[cron_task(name=f"t{n}") for n in range(50)])
    tables = ("INSERT INTO `tasks`", 'INSERT INTO "tasks"')  # MariaDB's quotes, SQLite's
    inserts = [q for q in queries.captured_queries if q["sql"].startswith(tables)]
    per_statement = connection.ops.bulk_batch_size(Task._meta.concrete_fields, [None] * 50)
    assert len(inserts) == math.ceil(50 / per_statement) and Task.objects.count() == 50


def test_the_create_entries_are_inserted_in_one_statement(api):
    """Not one INSERT per task: as few as the backend allows, as for the tasks."""
    with CaptureQueriesContext(connection) as queries:
        batch(api, *[cron_task(name=f"t{n}") for n in range(50)])
    tables = ("INSERT INTO `audit_entries`", 'INSERT INTO "audit_entries"')
    inserts = [q for q in queries.captured_queries if q["sql"].startswith(tables)]
    per_statement = connection.ops.bulk_batch_size(AuditEntry._meta.concrete_fields, [None] * 50)
    assert len(inserts) == 1 + math.ceil(50 / per_statement)  # the task.batch entry and these


def test_an_item_with_a_used_key_replays_its_task(api):
    first = batch(api, dict(cron_task(name="a"), idempotency_key="k1")).json()["results"][0]
    again = batch(api, dict(cron_task(name="a"), idempotency_key="k1")).json()["results"][0]
    assert (again["status"], again["replayed"]) == (201, True)
    assert again["task"]["id"] == first["task"]["id"] and Task.objects.count() == 1


def test_an_item_reusing_a_key_with_another_body_is_422(api):
    batch(api, dict(cron_task(name="a"), idempotency_key="k1"))
    other = batch(api, dict(cron_task(name="b"), idempotency_key="k1"))
    assert statuses(other) == [422]


def test_a_key_given_again_later_in_one_batch_is_422_for_the_later_item(api):
    item = dict(cron_task(name="a"), idempotency_key="k1")
    results = batch(api, item, cron_task(name="b"), item).json()["results"]
    assert [r["status"] for r in results] == [201, 201, 422]
    assert results[2]["error"]["code"] == "idempotency_key_repeated"
    assert "idempotency_key" in results[2]["error"]["fields"]
    assert Task.objects.filter(idempotency_key="k1").count() == 1


def test_a_key_of_an_earlier_task_given_twice_in_one_batch_replays_once(api):
    item = dict(cron_task(name="a"), idempotency_key="k1")
    batch(api, item)
    results = batch(api, item, item).json()["results"]
    assert [r["status"] for r in results] == [201, 422]
    assert results[0]["replayed"] is True and Task.objects.count() == 1


def test_a_failed_batch_is_charged_to_the_creation_rate(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=5)
    refused = batch(api, *[cron_task(cron="not cron") for _ in range(5)])
    assert statuses(refused) == [400] * 5
    after = batch(api, cron_task(name="valid"))
    assert after.status_code == 429 and "Retry-After" in after
    assert Task.objects.count() == 0


def test_items_the_quota_refuses_are_not_charged_to_the_creation_rate(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=2, create_rate=1, create_burst=5)
    first = batch(api, *[cron_task(name=f"t{n}") for n in range(5)])
    assert statuses(first) == [201, 201, 403, 403, 403]
    Tenant.objects.filter(id=tenant.id).update(max_tasks=10)
    assert statuses(batch(api, *[cron_task(name=f"u{n}") for n in range(3)])) == [201] * 3


def test_items_beyond_the_task_quota_get_403_each(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=2)
    response = batch(api, *[cron_task(name=f"t{n}") for n in range(3)])
    assert statuses(response) == [201, 201, 403]
    assert response.json()["results"][2]["error"]["code"] == "quota_exceeded"


def test_a_batch_is_charged_to_the_creation_rate_as_a_whole(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=5)
    assert statuses(batch(api, *[cron_task(name=f"t{n}") for n in range(5)])) == [201] * 5
    refused = batch(api, cron_task(name="one more"))
    assert refused.status_code == 429 and "Retry-After" in refused
    assert Task.objects.count() == 5


def test_a_batch_larger_than_the_tenants_burst_is_400(api, tenant):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=5)
    response = batch(api, *[cron_task(name=f"t{n}") for n in range(6)])
    assert response.status_code == 400 and "tasks" in response.json()["error"]["fields"]


def test_priority_0_without_the_grant_is_refused_for_that_item(api):
    assert statuses(batch(api, cron_task(priority=0), cron_task())) == [400, 201]


@pytest.mark.parametrize("tasks", [[], [cron_task()] * 501, "nope", None])
def test_a_batch_that_is_not_1_to_500_tasks_is_400(api, tasks):
    response = api.post("/v1/tasks/batch", {"tasks": tasks}, format="json")
    assert response.status_code == 400
    assert "tasks" in response.json()["error"]["fields"]
