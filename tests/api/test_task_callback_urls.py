"""A task's on_success_url and on_failure_url: set on create, PATCH and batch, shown with the
task, cleared with null, and held to the destination policy of `url` (400 naming the field)."""

import pytest

from tasks.models import Task
from tests.conftest import cron_task

DONE = "https://93.184.216.34/done"
FAILED = "https://93.184.216.34/failed"
FIELDS = ["on_success_url", "on_failure_url"]
# Each refused URL and what its 400 says about it (not "unknown field": the field exists).
REFUSED = {
    "ftp://93.184.216.34/x": "must use http or https",
    "http://10.0.0.5/hook": "not an allowed destination",
    "http://127.0.0.1/hook": "not an allowed destination",
    "http://[::1]/hook": "not an allowed destination",
    "http://localhost/hook": "not an allowed destination",
    "https://93.184.216.34:8080/hook": "not an allowed destination",
    "https://user:pass@93.184.216.34/hook": "must not carry credentials",
    "https://93.184.216.34/" + "a" * 2048: "no more than 2048 characters",
    "http://does-not-resolve.invalid/": "not an allowed destination",
    "": "may not be blank",
}


REFUSED_ON_PATCH = {
    "http://192.168.1.1/x": "not an allowed destination",
    "gopher://93.184.216.34/": "must use http or https",
}


def edit(api, task: dict, changes: dict):
    return api.patch(f"/v1/tasks/{task['id']}", changes, format="json", HTTP_IF_MATCH='"1"')


def test_a_task_is_created_with_both_callback_urls_and_shows_them(api):
    response = api.post(
        "/v1/tasks", cron_task(on_success_url=DONE, on_failure_url=FAILED), format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["on_success_url"] == DONE
    assert response.json()["on_failure_url"] == FAILED
    task = Task.objects.get()
    assert (task.on_success_url, task.on_failure_url) == (DONE, FAILED)


def test_a_task_without_callback_urls_shows_them_as_null(make_task):
    task = make_task()
    assert task["on_success_url"] is None and task["on_failure_url"] is None


def refusal(response, field: str) -> str:
    """What a 400 says about `field`, the one field it names."""
    assert response.status_code == 400, response.content
    fields = response.json()["error"]["fields"]
    assert list(fields) == [field], fields
    return str(fields[field])


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("url", REFUSED)
def test_a_refused_callback_url_on_create_is_400_naming_its_field(api, field, url):
    response = api.post("/v1/tasks", cron_task(**{field: url}), format="json")
    assert REFUSED[url] in refusal(response, field)
    assert not Task.objects.exists()


def test_a_callback_url_is_allowed_by_the_egress_allow_list_like_url(api, settings):
    settings.EGRESS_ALLOW = "127.0.0.0/8"
    body = cron_task(on_failure_url="http://127.0.0.1:8080/failed")
    assert api.post("/v1/tasks", body, format="json").status_code == 201


def test_a_callback_url_whose_name_answers_a_public_address_is_accepted(api, loopback_dns):
    body = cron_task(on_success_url="https://hooks.ok.test/done")
    assert api.post("/v1/tasks", body, format="json").status_code == 201


def test_patch_sets_a_callback_url(api, make_task):
    response = edit(api, make_task(), {"on_failure_url": FAILED})
    assert response.status_code == 200, response.content
    assert response.json()["on_failure_url"] == FAILED
    assert Task.objects.get().on_failure_url == FAILED


def test_patch_with_null_clears_a_callback_url(api, make_task):
    response = edit(api, make_task(on_success_url=DONE), {"on_success_url": None})
    assert response.status_code == 200, response.content
    assert response.json()["on_success_url"] is None
    assert Task.objects.get().on_success_url is None


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("url", ["http://192.168.1.1/x", "gopher://93.184.216.34/"])
def test_a_refused_callback_url_on_patch_is_400_and_changes_nothing(api, make_task, field, url):
    response = edit(api, make_task(), {field: url})
    assert REFUSED_ON_PATCH[url] in refusal(response, field)
    task = Task.objects.get()
    assert getattr(task, field) is None and task.version == 1


def test_a_batch_item_carries_its_callback_urls(api):
    items = [cron_task(on_success_url=DONE), cron_task(on_failure_url=FAILED)]
    response = api.post("/v1/tasks/batch", {"tasks": items}, format="json")
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 201]
    assert results[0]["task"]["on_success_url"] == DONE
    assert results[1]["task"]["on_failure_url"] == FAILED


@pytest.mark.parametrize("field", FIELDS)
def test_a_batch_item_with_a_refused_callback_url_is_400_naming_its_field(api, field):
    items = [cron_task(), cron_task(**{field: "http://169.254.169.254/latest"})]
    response = api.post("/v1/tasks/batch", {"tasks": items}, format="json")
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 400]
    assert list(results[1]["error"]["fields"]) == [field]
    assert "not an allowed destination" in str(results[1]["error"]["fields"][field])
    assert Task.objects.count() == 1


def test_a_batch_item_whose_callback_name_never_answers_is_400_on_time(api, loopback_dns):
    items = [cron_task(on_failure_url="https://x.hang.test/failed")]
    response = api.post("/v1/tasks/batch", {"tasks": items}, format="json")
    result = response.json()["results"][0]
    assert result["status"] == 400
    assert "resolved in time" in result["error"]["fields"]["on_failure_url"]
