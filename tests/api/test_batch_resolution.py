"""A batch's host names are looked up at once under one deadline for the whole request,
against a real DNS server on loopback (tests/dns_server.py) that never answers some names."""

import time

from django.conf import settings

from tasks.models import Task
from tests.conftest import cron_task


def hanging_batch(count: int) -> dict:
    return {"tasks": [cron_task(url=f"https://n{n}.hang.test/hook") for n in range(count)]}


def test_a_batch_of_500_names_that_never_answer_is_refused_within_one_deadline(api, loopback_dns):
    started = time.monotonic()
    response = api.post("/v1/tasks/batch", hanging_batch(500), format="json")
    took = time.monotonic() - started
    assert response.status_code == 200
    results = response.json()["results"]
    assert {r["status"] for r in results} == {400}
    assert all("resolved in time" in r["error"]["fields"]["url"] for r in results)
    assert took < settings.RESOLVE_DEADLINE_SECONDS + 3  # one deadline, not one per item
    assert loopback_dns.dropped > 0 and Task.objects.count() == 0


def test_a_name_that_answers_is_created_beside_names_that_never_do(api, loopback_dns):
    tasks = [cron_task(url="https://hooks.ok.test/"), *hanging_batch(20)["tasks"]]
    response = api.post("/v1/tasks/batch", {"tasks": tasks}, format="json")
    statuses = [r["status"] for r in response.json()["results"]]
    assert statuses == [201] + [400] * 20


def test_a_single_create_with_a_name_that_never_answers_is_400_on_time(api, loopback_dns):
    started = time.monotonic()
    response = api.post("/v1/tasks", cron_task(url="https://x.hang.test/"), format="json")
    assert response.status_code == 400
    assert "resolved in time" in response.json()["error"]["fields"]["url"]
    assert time.monotonic() - started < settings.RESOLVE_DEADLINE_SECONDS + 1.5


def test_an_edit_to_a_name_that_never_answers_is_400_on_time(api, make_task, loopback_dns):
    task = make_task()
    started = time.monotonic()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"url": "https://x.hang.test/"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 400
    assert "resolved in time" in response.json()["error"]["fields"]["url"]
    assert time.monotonic() - started < settings.RESOLVE_DEADLINE_SECONDS + 1.5
