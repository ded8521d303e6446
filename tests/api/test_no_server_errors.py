"""No request produces a 500: odd payloads on every task route end in a 4xx."""

import json
import random

import pytest

from tasks.serializers import TaskInput
from tests.conftest import cron_task

ODD_VALUES = [
    None,
    True,
    0,
    -1,
    2**63,
    1.5,
    "",
    "x" * 5000,
    [],
    {},
    [1],
    {"a": {"b": []}},
    "\u0000",
    "💥",
    "2030-13-45T99:99:99Z",
]
FIELDS = list(TaskInput().fields)


def test_random_payloads_on_create_never_fail_with_500(api):
    rng = random.Random(7)
    for _ in range(300):
        body = cron_task()
        for field in rng.sample(FIELDS, rng.randint(1, 4)):
            body[field] = rng.choice(ODD_VALUES)
        response = api.post("/v1/tasks", json.dumps(body), content_type="application/json")
        assert response.status_code < 500, (body, response.content)


def test_random_payloads_on_patch_never_fail_with_500(api, make_task):
    task = make_task()
    rng = random.Random(11)
    for _ in range(200):
        body = {field: rng.choice(ODD_VALUES) for field in rng.sample(FIELDS, rng.randint(1, 3))}
        response = api.patch(
            f"/v1/tasks/{task['id']}",
            json.dumps(body),
            content_type="application/json",
            HTTP_IF_MATCH="*",
        )
        assert response.status_code < 500, (body, response.content)


@pytest.mark.parametrize("if_match", ['""', "W/", '"1", "2"', "1" * 100, "-1", "\u00e9", '"' * 3])
def test_odd_if_match_headers_never_fail_with_500(api, make_task, if_match):
    task = make_task()
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH=if_match)
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize("content_type", ["text/plain", "application/xml", "multipart/form-data"])
def test_unsupported_content_type_is_415(api, content_type):
    response = api.generic("POST", "/v1/tasks", "x", content_type=content_type)
    assert response.status_code == 415


def test_unknown_route_is_a_json_404(api):
    response = api.get("/v1/nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_method_not_allowed_is_405(api):
    assert api.put("/v1/tasks", {}, format="json").status_code == 405


def test_a_non_ascii_digit_limit_is_400(api):
    assert api.get("/v1/tasks?limit=\u00b2").status_code == 400


def test_a_non_ascii_digit_if_match_is_412(api, make_task):
    task = make_task()
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"\u00b2"')
    assert response.status_code == 412


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00"])
def test_a_runs_cursor_at_the_edge_of_time_is_400(api, make_task, moment):
    from scheduler_site.pagination import encode_cursor

    task = make_task()
    cursor = encode_cursor({"at": moment, "id": "01a22754-0f49-70d3-8cd6-bf449c22e4ef"})
    assert api.get(f"/v1/tasks/{task['id']}/jobs?cursor={cursor}").status_code == 400


def test_a_request_for_a_host_not_allowed_gets_the_json_error_shape(api):
    response = api.get("/v1/dlq", HTTP_HOST="}p")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"
