"""The OpenAPI description of a task's callbacks: the two URL fields, and the request a
callback makes (its body field by field, with an example that is what payload.py makes)."""

import json
from datetime import UTC, datetime

import pytest

from jobs.callbacks.payload import Finished, body
from tasks.callback_body_docs import EXAMPLE_BODY
from tests.api.test_openapi_schema import schema  # noqa: F401 - a fixture

FIELDS = ("on_success_url", "on_failure_url")


@pytest.mark.parametrize("component", ["TaskInputRequest", "TaskOutput"])
@pytest.mark.parametrize("field", FIELDS)
def test_each_callback_field_has_a_description_with_an_example(schema, component, field):  # noqa: F811
    properties = schema["components"]["schemas"][component]["properties"]
    assert "e.g. `https://" in properties[field]["description"], properties[field]
    assert properties[field].get("nullable") is True


@pytest.mark.parametrize("method", ["post", "patch"])
def test_the_task_routes_describe_both_callbacks(schema, method):  # noqa: F811
    path = "/v1/tasks" if method == "post" else "/v1/tasks/{task_id}"
    callbacks = schema["paths"][path][method]["callbacks"]
    assert set(callbacks) == {"jobSucceeded", "jobDied"}
    (expression,) = callbacks["jobDied"]
    assert expression == "{$request.body#/on_failure_url}"


def test_the_callback_body_is_described_with_an_example(schema):  # noqa: F811
    operation = schema["paths"]["/v1/tasks"]["post"]["callbacks"]["jobDied"]
    (request,) = operation["{$request.body#/on_failure_url}"].values()
    assert "webhook-id" in request["description"]
    content = request["requestBody"]["content"]["application/json"]
    (example,) = content["examples"].values()
    assert example["value"] == EXAMPLE_BODY
    properties = schema["components"]["schemas"]["CallbackBody"]["properties"]
    assert set(properties) == set(EXAMPLE_BODY)


def test_the_documented_example_has_every_field_a_callback_sends():
    report = Finished(
        job_id="j", task_id="t", task_name="n", scheduled_at=datetime.now(UTC), status="dead",
        attempts=5, http_status=503, error="HTTP 503", duration_ms=1,
        finished_at=datetime.now(UTC), response="x",
    )  # fmt: skip
    assert set(json.loads(body("failure", report))) == set(EXAMPLE_BODY)


def test_the_tenant_patch_describes_the_failure_alert_with_its_counts(schema):  # noqa: F811
    callbacks = schema["paths"]["/v1/tenant"]["patch"]["callbacks"]
    (request,) = callbacks["jobDiedAlert"]["{$request.body#/on_failure_url}"].values()
    (example,) = request["requestBody"]["content"]["application/json"]["examples"].values()
    assert example["value"]["event"] == "alert" and example["value"]["deaths"] == 3
    properties = schema["components"]["schemas"]["AlertBody"]["properties"]
    assert {"deaths", "window_seconds"} <= set(properties)
