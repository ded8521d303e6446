"""An unknown query parameter is a 400 naming it on every route and method, as an unknown
body field is, before anything is read or written; the parameters a route documents work."""

import re

import pytest
from django.urls import resolve

from scheduler_site.query_params import PAGING
from tasks.models import Task
from tests.api.routes import api_patterns, view_class
from tests.conftest import cron_task

HANDLERS = ("get", "post", "put", "patch", "delete")
A_UUID = "01a22754-6026-7ed2-b47c-5491fcc5bdc5"


def every_route_and_method() -> list[tuple[str, str]]:
    """(method, path) for each handler of each API view under /v1/, its path values filled."""
    found = set()
    for text, pattern in api_patterns():
        view = view_class(pattern)
        if view is not None and view.__module__.startswith("drf_spectacular"):
            continue  # the schema and the docs pages take drf-spectacular's own
        path = "/" + _filled(text)
        found.update((m, path) for m in HANDLERS if view and hasattr(view, m))
    return sorted(found)


def _filled(route: str) -> str:
    while "<" in route:
        start, end = route.index("<"), route.index(">")
        route = route[:start] + A_UUID + route[end + 1 :]
    return route


ROUTES = every_route_and_method()


def test_the_walk_finds_the_routes_of_every_app():
    paths = {path for _, path in ROUTES}
    assert {"/v1/dlq", "/v1/tasks", "/v1/audit", "/v1/flows", "/v1/secrets", "/v1/tenant"} <= paths
    assert ("post", f"/v1/jobs/{A_UUID}/discard") in ROUTES


@pytest.mark.parametrize("method, path", ROUTES)
def test_an_unknown_query_parameter_is_400_naming_it(api, method, path):
    response = api.generic(
        method.upper(), f"{path}?bogus=1", data="{}", content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["fields"] == {"bogus": "unknown query parameter"}


def test_a_write_refused_for_its_query_parameter_writes_nothing(api):
    response = api.post("/v1/tasks?dry_run=1", cron_task(), format="json")
    assert response.status_code == 400 and not Task.objects.exists()


def test_a_paging_parameter_on_a_write_is_refused(api):
    assert api.post("/v1/tasks?limit=5", cron_task(), format="json").status_code == 400


def test_a_paging_parameter_on_a_single_object_read_is_refused(api, make_task):
    task = make_task()
    assert api.get(f"/v1/tasks/{task['id']}?limit=5").status_code == 400


@pytest.mark.parametrize("path", ["/v1/tasks", "/v1/dlq", "/v1/audit", "/v1/flows", "/v1/secrets"])
def test_the_paging_parameters_of_a_list_are_known(api, path):
    assert api.get(f"{path}?limit=5").status_code == 200


def test_an_unknown_query_parameter_without_a_token_is_401(client):
    assert client.get("/v1/tasks?bogus=1").status_code == 401


def test_the_schema_still_takes_its_format_parameter(client):
    assert client.get("/v1/schema?format=json").status_code == 200


def test_every_route_takes_exactly_the_query_parameters_its_schema_documents(client):
    """A generated client sends what the schema documents: a documented parameter the view
    refused would break it, one the view takes undocumented is a filter nobody can find."""
    schema = client.get("/v1/schema?format=json").json()
    differ = {}
    for path, operations in schema["paths"].items():
        view = resolve(re.sub(r"\{[^}]+\}", A_UUID, path)).func.view_class
        declared = getattr(view, "known_query_params", None)
        for method, operation in operations.items():
            method = method.upper()
            documented = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            default = PAGING if method == "GET" else frozenset()
            known = default if declared is None else declared.get(method, frozenset())
            if documented != set(known):
                differ[f"{method} {path}"] = (sorted(documented), sorted(known))
    assert differ == {}


def test_a_format_no_renderer_offers_is_a_400_naming_format_not_a_404(api):
    for response in (api.get("/v1/tasks?format=xml"), api.post("/v1/tasks?format=api", {})):
        assert response.status_code == 400
        assert response.json()["error"]["fields"] == {"format": "unknown query parameter"}


def test_a_format_asked_without_a_credential_is_a_401_first(client):
    assert client.get("/v1/tasks?format=xml").status_code == 401


def test_the_schema_still_takes_format_json(client):
    response = client.get("/v1/schema?format=json")
    assert response.status_code == 200 and "openapi" in response.json()
