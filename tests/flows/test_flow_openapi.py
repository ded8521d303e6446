"""The flows routes in the OpenAPI description: readable operation ids, their errors, the
settings' bounds and the circuit's states."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def schema(db) -> dict:
    response = APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    return response.json()


def test_every_flows_operation_has_a_readable_id(schema):
    ids = {
        f"{method} {path}": operation["operationId"]
        for path, operations in schema["paths"].items()
        if path.startswith("/v1/flows")
        for method, operation in operations.items()
    }
    assert ids == {
        "get /v1/flows": "listFlows",
        "get /v1/flows/{key}": "getFlow",
        "put /v1/flows/{key}": "putFlow",
        "delete /v1/flows/{key}": "deleteFlow",
        "post /v1/flows/{key}/pause": "pauseFlow",
        "post /v1/flows/{key}/resume": "resumeFlow",
    }


def test_put_states_both_answers_and_the_settings_bounds(schema):
    operation = schema["paths"]["/v1/flows/{key}"]["put"]
    assert {"200", "201", "400", "413"} <= set(operation["responses"])
    settings = schema["components"]["schemas"]["FlowInputRequest"]["properties"]
    assert (settings["parallelism"]["minimum"], settings["parallelism"]["maximum"]) == (1, 10_000)
    assert settings["breaker_failures"]["minimum"] == 0


def test_the_circuit_states_are_named_for_the_circuit(schema):
    assert schema["components"]["schemas"]["CircuitStateEnum"]["enum"] == [
        "closed",
        "open",
        "half_open",
    ]


def test_tasks_and_the_tenant_describe_their_flow_fields(schema):
    components = schema["components"]["schemas"]
    assert "pattern" in components["TaskInputRequest"]["properties"]["flow_key"]
    assert "flow_key" in components["TaskOutput"]["properties"]
    assert "per_host_flows" in components["PatchedTenantPatchInputRequest"]["properties"]


def test_the_settings_left_out_of_a_put_state_their_defaults(schema):
    settings = schema["components"]["schemas"]["FlowInputRequest"]["properties"]
    defaults = {name: field.get("default") for name, field in settings.items()}
    assert defaults == {
        "parallelism": None,
        "rate": None,
        "period_seconds": 1,
        "breaker_failures": 10,
        "breaker_cooldown_seconds": 30,
    }
