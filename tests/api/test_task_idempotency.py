"""Idempotent create: one key, one task, even when requests race."""

import threading

import pytest
import requests

from tasks.auth import issue_token
from tasks.models import Task
from tests.conftest import cron_task


def post_with_key(api, body: dict, key: str):
    return api.post("/v1/tasks", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_same_key_and_body_replays_the_original_task(api):
    first = post_with_key(api, cron_task(), "key-1")
    second = post_with_key(api, cron_task(), "key-1")
    assert first.status_code == second.status_code == 201
    assert second.json()["id"] == first.json()["id"]
    assert second["Idempotent-Replayed"] == "true"
    assert Task.objects.count() == 1


def test_same_key_with_another_body_is_422(api):
    post_with_key(api, cron_task(), "key-1")
    response = post_with_key(api, cron_task(name="other"), "key-1")
    assert response.status_code == 422
    assert Task.objects.count() == 1


def test_key_order_of_the_json_body_does_not_matter(api):
    body = cron_task()
    first = post_with_key(api, body, "key-1")
    reordered = dict(reversed(list(body.items())))
    assert post_with_key(api, reordered, "key-1").json()["id"] == first.json()["id"]


def test_same_key_for_two_tenants_makes_two_tasks(api, other_api):
    first = post_with_key(api, cron_task(), "shared")
    second = post_with_key(other_api, cron_task(), "shared")
    assert first.json()["id"] != second.json()["id"]


def test_key_of_a_deleted_task_is_422(api):
    created = post_with_key(api, cron_task(), "key-1").json()
    api.delete(f"/v1/tasks/{created['id']}", HTTP_IF_MATCH='"1"')
    assert post_with_key(api, cron_task(), "key-1").status_code == 422


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_create_one_task(live_server, tenant):
    token = issue_token(tenant)
    barrier = threading.Barrier(8)
    responses = []

    def create():
        barrier.wait()
        responses.append(
            requests.post(
                f"{live_server.url}/v1/tasks",
                json=cron_task(),
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "race"},
                timeout=30,
            )
        )

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in responses] == [201] * 8
    assert len({r.json()["id"] for r in responses}) == 1
    assert Task.objects.filter(tenant=tenant).count() == 1


def test_keys_that_differ_only_in_case_are_different_keys(api):
    first = post_with_key(api, cron_task(), "Key-1")
    second = post_with_key(api, cron_task(name="other"), "key-1")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] != second.json()["id"]
