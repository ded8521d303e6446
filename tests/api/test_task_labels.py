"""`labels` on a task: up to 20 `key: value` string pairs, refused with a 400 naming them."""

import pytest

from tasks.models import Task
from tests.conftest import cron_task


def create(api, labels):
    return api.post("/v1/tasks", cron_task(labels=labels), format="json")


def fields_of(response) -> dict:
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]


def post_raw(api, route: str, body: str, **extra):
    """A body as written: a lone surrogate escape cannot be encoded by the test client."""
    return api.generic("POST", route, body, content_type="application/json", **extra)


TASK = '"name": "n", "cron": "0 3 * * *", "url": "https://93.184.216.34/"'


def test_labels_are_stored_and_shown(api):
    response = create(api, {"env": "prod", "team.billing": "a:b"})
    assert response.status_code == 201, response.content
    assert response.json()["labels"] == {"env": "prod", "team.billing": "a:b"}
    assert Task.objects.get(id=response.json()["id"]).labels == {
        "env": "prod",
        "team.billing": "a:b",
    }


def test_a_task_without_labels_shows_an_empty_object(api):
    response = api.post("/v1/tasks", cron_task(), format="json")
    assert response.json()["labels"] == {}


def test_twenty_labels_are_accepted(api):
    labels = {f"k{i}": "v" for i in range(20)}
    assert create(api, labels).status_code == 201


def test_more_than_twenty_labels_are_refused_naming_labels(api):
    fields = fields_of(create(api, {f"k{i}": "v" for i in range(21)}))
    assert "labels" in fields and "20" in str(fields["labels"])


@pytest.mark.parametrize("key", ["has space", "Upper", "", "x" * 64, "é"])
def test_a_bad_key_is_refused_naming_it(api, key):
    fields = fields_of(create(api, {key: "v"}))
    assert key in fields["labels"]


def test_a_non_string_value_is_refused_naming_its_key(api):
    fields = fields_of(create(api, {"count": 3}))
    assert "string" in fields["labels"]["count"]


def test_a_value_over_255_characters_is_refused_naming_its_key(api):
    assert create(api, {"note": "x" * 255}).status_code == 201
    fields = fields_of(create(api, {"note": "x" * 256}))
    assert "255" in fields["labels"]["note"]


def test_labels_that_are_not_an_object_are_refused(api):
    assert "labels" in fields_of(create(api, ["env:prod"]))


def test_patch_replaces_the_labels(api, make_task):
    task = make_task(labels={"env": "prod", "team": "a"})
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"labels": {"env": "dev"}}, format="json", HTTP_IF_MATCH="*"
    )
    assert response.status_code == 200, response.content
    assert response.json()["labels"] == {"env": "dev"}


def test_patch_with_null_clears_the_labels(api, make_task):
    task = make_task(labels={"env": "prod"})
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"labels": None}, format="json", HTTP_IF_MATCH="*"
    )
    assert response.json()["labels"] == {}


def test_patch_refuses_a_bad_label_naming_it(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"labels": {"Bad Key": "v"}}, format="json", HTTP_IF_MATCH="*"
    )
    assert "Bad Key" in fields_of(response)["labels"]


def test_batch_items_carry_labels_and_a_bad_one_is_refused_alone(api):
    items = [cron_task(labels={"env": "prod"}), cron_task(labels={"env": 1})]
    results = api.post("/v1/tasks/batch", {"tasks": items}, format="json").json()["results"]
    assert results[0]["status"] == 201 and results[0]["task"]["labels"] == {"env": "prod"}
    assert results[1]["status"] == 400 and "env" in results[1]["error"]["fields"]["labels"]


def test_a_lone_surrogate_in_a_value_is_refused_naming_its_key(api):
    response = post_raw(api, "/v1/tasks", "{" + TASK + ', "labels": {"env": "\\ud800"}}')
    assert "surrogate" in fields_of(response)["labels"]["env"]


def test_a_lone_surrogate_in_a_key_is_refused_naming_labels(api):
    response = post_raw(api, "/v1/tasks", "{" + TASK + ', "labels": {"e\\udc00": "v"}}')
    assert list(fields_of(response)["labels"]) == ["e\\udc00"]


def test_patch_refuses_a_lone_surrogate_in_a_label(api, make_task):
    task = make_task()
    response = api.generic(
        "PATCH",
        f"/v1/tasks/{task['id']}",
        '{"labels": {"env": "\\ud800"}}',
        content_type="application/json",
        HTTP_IF_MATCH="*",
    )
    assert "env" in fields_of(response)["labels"]


def test_a_batch_item_with_a_lone_surrogate_label_is_refused_alone(api):
    body = '{"tasks": [{' + TASK + ', "labels": {"env": "\\ud800"}}]}'
    [result] = post_raw(api, "/v1/tasks/batch", body).json()["results"]
    assert result["status"] == 400 and "env" in result["error"]["fields"]["labels"]
