"""The schema names the key routes for code generators and describes the key as a bearer
scheme beside the JWT; only the creation's answer carries `key`."""

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def schema(db) -> dict:
    return APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def test_the_key_routes_have_their_operation_ids(schema):
    paths = schema["paths"]
    assert paths["/v1/api-keys"]["post"]["operationId"] == "createApiKey"
    assert paths["/v1/api-keys"]["get"]["operationId"] == "listApiKeys"
    assert paths["/v1/api-keys/{key_id}"]["get"]["operationId"] == "getApiKey"
    assert paths["/v1/api-keys/{key_id}"]["delete"]["operationId"] == "revokeApiKey"


def test_every_route_takes_a_key_or_a_token(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tenantApiKey"]["scheme"] == "bearer"
    tasks = schema["paths"]["/v1/tasks"]["get"]["security"]
    assert {"tenantApiKey": []} in tasks and {"tenantToken": []} in tasks


def test_only_the_created_key_carries_the_key(schema):
    components = schema["components"]["schemas"]
    assert "key" in components["CreatedApiKeyOutput"]["properties"]
    assert "key" not in components["ApiKeyOutput"]["properties"]
    assert set(components["ApiKeyInputRequest"]["properties"]) == {"name", "scope", "expires_at"}
