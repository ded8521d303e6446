"""What a code generator reads in /v1/schema: operation ids named for what they do, an
example for every body, closed request bodies with described and defaulted fields, the
one-of-schedule rule and the service's version."""

import pytest

from scheduler_site.operation_ids import CAMEL_CASE, name_operations
from scheduler_site.version import VERSION
from tests.api.openapi_documents import (
    component,
    operations,
    request_bodies,
    success_bodies,
    validator,
)
from tests.api.test_openapi_schema import schema  # noqa: F401 - a fixture


def test_every_operation_has_a_camel_case_id(schema):  # noqa: F811
    ids = {f"{method} {path}": op.get("operationId", "") for path, method, op in operations(schema)}
    assert {route: name for route, name in ids.items() if not CAMEL_CASE.fullmatch(name)} == {}


def test_no_two_operations_share_an_id(schema):  # noqa: F811
    ids = [operation["operationId"] for _, _, operation in operations(schema)]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("method", "path", "name"),
    [
        ("get", "/v1/dlq", "listDeadJobs"),
        ("post", "/v1/tasks/{task_id}/pause", "pauseTask"),
        ("get", "/v1/tasks/{task_id}", "getTask"),
        ("post", "/v1/tasks", "createTask"),
        ("get", "/v1/tasks", "listTasks"),
        ("get", "/v1/tasks/{task_id}/jobs", "listTaskJobs"),
        ("post", "/v1/jobs/{job_id}/retry", "retryDeadJob"),
        ("get", "/v1/jobs/{job_id}/attempts", "listJobAttempts"),
    ],
)
def test_an_operation_is_named_for_what_it_does(schema, method, path, name):  # noqa: F811
    assert schema["paths"][path][method]["operationId"] == name


def test_an_id_a_view_sets_in_camel_case_is_kept():
    document = {"paths": {"/v1/tasks": {"post": {"operationId": "makeTask"}}}}
    assert name_operations(document, None, None, True) == document


def test_a_route_is_named_whatever_its_path_parameter_is_called():
    document = {"paths": {"/v1/api-keys/{key_id}": {"delete": {"operationId": "x_destroy"}}}}
    named = name_operations(document, None, None, True)
    assert named["paths"]["/v1/api-keys/{key_id}"]["delete"]["operationId"] == "revokeApiKey"


def test_every_request_body_refuses_unknown_fields(schema):  # noqa: F811
    open_bodies = [
        route
        for route, media in request_bodies(schema)
        if component(schema, media).get("additionalProperties") is not False
    ]
    assert open_bodies == []


def test_every_request_body_has_an_example(schema):  # noqa: F811
    assert [route for route, media in request_bodies(schema) if not media.get("examples")] == []


def test_every_success_body_has_an_example(schema):  # noqa: F811
    assert [route for route, media in success_bodies(schema) if not media.get("examples")] == []


def test_every_example_matches_its_own_schema(schema):  # noqa: F811
    wrong = []
    for route, media in [*request_bodies(schema), *success_bodies(schema)]:
        check = validator(schema, media["schema"])
        for title, example in media["examples"].items():
            wrong += [
                f"{route} {title}: {error.message}" for error in check.iter_errors(example["value"])
            ]
    assert wrong == []


def test_the_error_shape_has_its_example_once(schema):  # noqa: F811
    error_body = schema["components"]["schemas"]["ErrorBody"]
    validator(schema, error_body).validate(error_body["example"])
    assert error_body["example"]["error"]["code"] == "invalid"


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"url": "https://example.com/", "cron": "0 3 * * *"}, True),
        ({"url": "https://example.com/", "run_at": "2030-01-01T09:00:00Z"}, True),
        ({"url": "https://example.com/", "interval_seconds": 90}, True),
        ({"url": "https://example.com/"}, False),
        (
            {"url": "https://example.com/", "cron": "0 3 * * *", "run_at": "2030-01-01T09:00:00Z"},
            False,
        ),
        ({"url": "https://example.com/", "cron": "0 3 * * *", "colour": "red"}, False),
    ],
)
def test_a_task_takes_exactly_one_kind_of_schedule(schema, body, valid):  # noqa: F811
    media = schema["paths"]["/v1/tasks"]["post"]["requestBody"]["content"]["application/json"]
    assert validator(schema, media["schema"]).is_valid(body) is valid


def test_the_one_of_rule_is_said_in_words_too(schema):  # noqa: F811
    (rule,) = schema["components"]["schemas"]["TaskInputRequest"]["allOf"]
    assert rule["description"] == "exactly one of cron, run_at, interval_seconds"


def test_a_task_field_left_out_shows_its_default(schema):  # noqa: F811
    fields = schema["components"]["schemas"]["TaskInputRequest"]["properties"]
    defaults = {name: field.get("default") for name, field in fields.items()}
    assert defaults["timezone"] == "UTC" and defaults["method"] == "POST"
    assert (defaults["priority"], defaults["max_attempts"], defaults["timeout_seconds"]) == (
        5,
        5,
        30,
    )
    assert defaults["misfire_policy"] == "run_all" and defaults["overlap"] == "allow"


def test_a_flow_setting_left_out_shows_its_default(schema):  # noqa: F811
    fields = schema["components"]["schemas"]["FlowInputRequest"]["properties"]
    assert fields["period_seconds"]["default"] == 1 and fields["parallelism"]["default"] is None


def test_a_patch_shows_no_default(schema):  # noqa: F811
    # A field left out of a PATCH keeps its value: a default would say otherwise.
    fields = schema["components"]["schemas"]["PatchedTaskPatchInputRequest"]["properties"]
    assert [name for name, field in fields.items() if "default" in field] == []


def test_every_request_field_is_described(schema):  # noqa: F811
    undescribed = [
        f"{name}.{field}"
        for name, body in schema["components"]["schemas"].items()
        if name.endswith("Request")
        for field, spec in body.get("properties", {}).items()
        if not spec.get("description")
    ]
    assert undescribed == []


def test_the_schema_carries_the_service_version(schema):  # noqa: F811
    assert schema["info"]["version"] == VERSION
