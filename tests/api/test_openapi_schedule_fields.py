"""The OpenAPI description of a task's interval, window and run limit."""

import pytest

from tests.api.test_openapi_schema import schema  # noqa: F401 - a fixture

NEW_INPUT_FIELDS = ("interval_seconds", "starts_at", "ends_at", "max_runs")


@pytest.mark.parametrize("component", ["TaskInputRequest", "PatchedTaskPatchInputRequest"])
def test_the_request_says_a_schedule_is_exactly_one_of_three_kinds(schema, component):  # noqa: F811
    description = schema["components"]["schemas"][component]["description"]
    assert "exactly one of cron, run_at, interval_seconds" in description


@pytest.mark.parametrize("field", NEW_INPUT_FIELDS)
def test_each_new_request_field_has_a_description_with_an_example(schema, field):  # noqa: F811
    properties = schema["components"]["schemas"]["TaskInputRequest"]["properties"]
    assert "e.g. `" in properties[field]["description"], properties[field]


@pytest.mark.parametrize("field", [*NEW_INPUT_FIELDS, "runs_made", "next_run_at"])
def test_each_new_response_field_has_a_description_with_an_example(schema, field):  # noqa: F811
    properties = schema["components"]["schemas"]["TaskOutput"]["properties"]
    assert "e.g. `" in properties[field]["description"], properties[field]


def test_the_create_route_shows_an_interval_task_and_a_windowed_cron_task(schema):  # noqa: F811
    body = schema["paths"]["/v1/tasks"]["post"]["requestBody"]["content"]["application/json"]
    values = [example["value"] for example in body["examples"].values()]
    assert any(value.get("interval_seconds") == 90 for value in values)
    assert any(value.get("cron") and value.get("max_runs") for value in values)
