"""The OpenAPI description: every /v1 route and method is in it, it is a valid OpenAPI 3
document, and it and its Swagger UI are served without a token and without a CDN."""

import re

import pytest
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from tests.api.routes import api_patterns, view_class

HTTP_METHODS = ("get", "post", "put", "patch", "delete")
UNDOCUMENTED = {"/v1/schema", "/v1/docs"}  # the description itself and its page


def routes_and_methods() -> dict[str, set[str]]:
    """Every URL route under /v1/ (path parameters as `{name}`) and its view's methods."""
    found: dict[str, set[str]] = {}
    for text, pattern in api_patterns():
        path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)
        view = view_class(pattern)
        methods = {m for m in HTTP_METHODS if view is not None and hasattr(view, m)}
        found.setdefault(path, set()).update(methods)
    return {path: methods for path, methods in found.items() if path not in UNDOCUMENTED}


@pytest.fixture
def schema(db) -> dict:
    response = APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_every_v1_route_and_method_is_in_the_schema(schema):
    routes = routes_and_methods()
    assert len(routes) >= 14
    missing = [
        f"{method.upper()} {path}"
        for path, methods in routes.items()
        for method in methods
        if method not in schema["paths"].get(path, {})
    ]
    assert missing == []


def test_the_schema_describes_no_route_that_does_not_exist(schema):
    assert set(schema["paths"]) == set(routes_and_methods())


def test_the_schema_is_a_valid_openapi_3_document(schema):
    assert schema["openapi"].startswith("3.")
    validate_schema(schema)  # raises on any violation of the OpenAPI 3 meta-schema


def test_every_operation_describes_its_errors_with_the_one_error_shape(schema):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            errors = {code: r for code, r in operation["responses"].items() if code >= "400"}
            assert {"400", "401"} <= set(errors), (method, path)
            for response in errors.values():
                body = response["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/ErrorBody"}, (method, path)


def test_the_schema_names_the_headers_of_the_contract(schema):
    text = str(schema)
    for header in ("Idempotency-Key", "If-Match", "ETag", "Idempotent-Replayed", "Retry-After"):
        assert f"'{header}'" in text, header
    assert schema["components"]["securitySchemes"]["tenantToken"]["scheme"] == "bearer"


def test_the_schema_is_served_whatever_token_comes_with_it(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")
    assert client.get("/v1/schema").status_code == 200


def test_the_docs_page_loads_its_assets_from_this_server(db):
    page = APIClient().get("/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn." not in html and "unpkg" not in html
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert any("swagger-ui-bundle" in asset for asset in assets), html[:500]
    for asset in assets:
        assert APIClient().get(asset).status_code == 200, asset


def test_the_ledger_route_is_described_with_an_example(schema):
    operation = schema["paths"]["/v1/tasks/{task_id}/skipped"]["get"]
    assert "reason" in operation["description"]
    content = operation["responses"]["200"]["content"]["application/json"]
    (example,) = content["examples"].values()
    assert example["value"]["results"][0]["reason"] == "paused"


def test_the_audit_route_is_described_with_its_filters_and_an_example(schema):
    operation = schema["paths"]["/v1/audit"]["get"]
    names = {parameter["name"] for parameter in operation["parameters"]}
    assert {"target", "action", "since", "until", "cursor", "limit"} <= names
    content = operation["responses"]["200"]["content"]["application/json"]
    (example,) = content["examples"].values()
    assert example["value"]["results"][0]["action"] == "task.update"
    assert set(schema["paths"]["/v1/audit"]) == {"get"}  # read-only
