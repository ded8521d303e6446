"""The bulk routes' filter: every field checked, a 400 naming the field."""

import uuid

import pytest

ROUTES = ["/v1/dlq/retry", "/v1/jobs/cancel"]


def refused_fields(api, route, body) -> dict:
    response = api.post(route, body, format="json")
    assert response.status_code == 400, response.content
    return response.json()["error"]["fields"]


@pytest.mark.parametrize("route", ROUTES)
def test_an_empty_filter_is_refused(api, route):
    assert "filter" in refused_fields(api, route, {})


@pytest.mark.parametrize("route", ROUTES)
def test_a_dry_run_alone_is_not_a_filter(api, route):
    assert "filter" in refused_fields(api, route, {"dry_run": True})


@pytest.mark.parametrize("route", ROUTES)
def test_more_than_1000_ids_are_refused_naming_ids(api, route):
    ids = [str(uuid.uuid4()) for _ in range(1001)]
    assert "ids" in refused_fields(api, route, {"ids": ids})


@pytest.mark.parametrize("route", ROUTES)
def test_1000_ids_are_accepted(api, route):
    ids = [str(uuid.uuid4()) for _ in range(1000)]
    assert api.post(route, {"ids": ids}, format="json").json()["count"] == 0


@pytest.mark.parametrize("route", ROUTES)
def test_an_unknown_field_is_refused_naming_it(api, route):
    assert "status" in refused_fields(api, route, {"task_id": str(uuid.uuid4()), "status": "x"})


@pytest.mark.parametrize("name", ["scheduled_before", "scheduled_after"])
@pytest.mark.parametrize("value", ["yesterday", "2030-01-01T09:00:00", 5])
def test_a_bad_timestamp_is_refused_naming_it(api, name, value):
    assert name in refused_fields(api, "/v1/dlq/retry", {name: value})


@pytest.mark.parametrize("label", ["env", "Env:prod", ["env:prod", "nope"], [], {"env": "prod"}, 3])
def test_a_bad_label_is_refused_naming_label(api, label):
    assert "label" in refused_fields(api, "/v1/jobs/cancel", {"label": label})


@pytest.mark.parametrize("body", [{"task_id": "x"}, {"ids": ["x"]}, {"ids": "x"}])
def test_a_bad_id_is_refused_naming_its_field(api, body):
    assert set(body) <= set(refused_fields(api, "/v1/jobs/cancel", body))


def test_an_empty_error_text_is_refused(api):
    assert "error_contains" in refused_fields(api, "/v1/dlq/retry", {"error_contains": ""})


def test_a_body_that_is_not_an_object_is_refused(api):
    assert refused_fields(api, "/v1/dlq/retry", ["x"])


def test_jobs_cancel_is_not_read_as_a_job_id(api):
    """jobs/cancel comes before jobs/<job_id> in the routes."""
    response = api.post("/v1/jobs/cancel", {"ids": []}, format="json")
    assert response.status_code == 200 and response.json()["count"] == 0


def post_raw(api, route: str, body: str):
    """A body as written: a lone surrogate escape cannot be encoded by the test client."""
    return api.generic("POST", route, body, content_type="application/json")


def test_a_lone_surrogate_in_a_label_filter_is_refused_naming_label(api):
    response = post_raw(api, "/v1/dlq/retry", '{"label": "env:\\ud800"}')
    assert response.status_code == 400, response.content
    assert "label" in response.json()["error"]["fields"]


def test_a_lone_surrogate_in_error_contains_is_refused_naming_it(api):
    response = post_raw(api, "/v1/jobs/cancel", '{"error_contains": "x\\ud800"}')
    assert response.status_code == 400, response.content
    assert "error_contains" in response.json()["error"]["fields"]
