"""No request to any API route ends in a 5xx: Hypothesis sends each route generated
methods, path values, query strings, headers and bodies, with a valid token."""

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobs.models import Job
from tests.api.routes import api_patterns
from tests.conftest import cron_task

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
TASK_FIELDS = list(cron_task()) + ["run_at", "headers", "body", "priority", "max_attempts"]
TASK_LIKE = st.dictionaries(st.sampled_from(TASK_FIELDS), JSON_VALUES, max_size=6)
TEXT = st.text(max_size=60)


def api_routes() -> list[str]:
    """Every route under /v1/, with its path parameters as `{name}`."""
    routes = {
        "/" + text.replace("<str:", "{").replace("<task_name:", "{").replace(">", "}")
        for text, _ in api_patterns()
    }
    return sorted(routes)


ROUTES = api_routes()


@pytest.fixture
def known_ids(api, make_task, tenant):
    task = make_task()
    job = Job.objects.create(
        tenant=tenant,
        task_id=task["id"],
        scheduled_at="2030-01-01T00:00:00Z",
        next_attempt_at="2030-01-01T00:00:00Z",
    )
    api.put("/v1/secrets/crm", {"value": "Bearer x"}, format="json")
    return [task["id"], str(job.id), "crm"]


def path_values(known: list[str]):
    return (
        st.sampled_from(known)
        | st.uuids().map(str)
        | st.text(
            alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/?#"),
            min_size=1,
            max_size=40,
        )
    )


def as_wsgi(text: str) -> str:
    """What a WSGI server hands over for these characters sent raw: UTF-8 bytes, each one
    as a latin-1 character (PEP 3333), never a character above 255."""
    return text.encode("utf-8").decode("latin-1")


def test_every_route_is_fuzzed():
    assert len(ROUTES) >= 10 and "/v1/tasks/{task_id}/jobs" in ROUTES


@pytest.mark.parametrize("route", ROUTES)
def test_no_generated_request_gets_a_server_error(api, known_ids, route):
    @settings(
        max_examples=80,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        method=st.sampled_from(METHODS),
        value=path_values(known_ids),
        query=st.dictionaries(st.sampled_from(["limit", "cursor", "status", "x"]), TEXT),
        if_match=st.none() | TEXT | st.integers(-2, 5).map(lambda v: f'"{v}"'),
        key=st.none() | TEXT,
        body=st.none() | TASK_LIKE.map(json.dumps) | JSON_VALUES.map(json.dumps) | TEXT,
    )
    def one_request(method, value, query, if_match, key, body):
        path = route
        while "{" in path:
            start, end = path.index("{"), path.index("}")
            path = path[:start] + quote(value, safe="") + path[end + 1 :]
        headers = {}
        if if_match is not None:
            headers["HTTP_IF_MATCH"] = as_wsgi(if_match.replace("\n", " "))
        if key is not None:
            headers["HTTP_IDEMPOTENCY_KEY"] = as_wsgi(key.replace("\n", " "))
        response = api.generic(
            method,
            path,
            data=body or "",
            content_type="application/json",
            QUERY_STRING=as_wsgi("&".join(f"{k}={v}" for k, v in query.items())),
            **headers,
        )
        assert response.status_code < 500, (method, path, query, body, response.content[:300])

    one_request()
