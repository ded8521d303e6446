"""Hostile requests get a clear 4xx: oversized or deep bodies, odd cursors, odd names."""

import base64
import json
import time

import pytest
from django.conf import settings

from tasks import dns_lookup
from tests.conftest import cron_task, one_off_task


def post_raw(api, body: bytes, path: str = "/v1/tasks"):
    return api.generic("POST", path, body, content_type="application/json")


def cursor_of(position: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def test_a_body_over_one_mib_is_413_before_it_is_parsed(api):
    response = post_raw(api, b'{"name": "' + b"x" * (1024 * 1024) + b'"}')
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_a_body_of_one_mib_is_parsed(api):
    body = json.dumps(cron_task(name="x" * 10)).encode()
    body += b" " * (1024 * 1024 - len(body))
    assert post_raw(api, body).status_code == 201


def test_json_nested_deeper_than_32_levels_is_400(api):
    response = post_raw(api, nested(33))
    assert response.status_code == 400
    assert "32" in response.json()["error"]["message"]


def test_json_nested_past_the_interpreters_recursion_limit_is_400(api):
    assert post_raw(api, nested(100_000)).status_code == 400


def test_json_nested_32_levels_is_read(api):
    response = post_raw(api, nested(32))
    assert response.status_code == 400  # not a task, but it was parsed
    assert "32" not in response.json()["error"]["message"]


@pytest.mark.parametrize(
    "cursor",
    [
        cursor_of({"after": {"after": {"after": "x"}}}),
        cursor_of({"after": 12}),
        cursor_of(["after"]),
        "[" * 600,
        base64.urlsafe_b64encode(b"[" * 300 + b"]" * 300).decode(),
    ],
)
def test_a_malformed_task_list_cursor_is_400(api, cursor):
    response = api.get("/v1/tasks", {"cursor": cursor})
    assert response.status_code == 400
    assert "cursor" in response.json()["error"]["fields"]


@pytest.mark.parametrize(
    "position", [{"at": "2026-01-01T00:00:00+00:00", "id": 12}, {"at": 5, "id": "x"}, {"id": "x"}]
)
def test_a_malformed_runs_cursor_is_400(api, make_task, position):
    task = make_task()
    response = api.get(f"/v1/tasks/{task['id']}/jobs", {"cursor": cursor_of(position)})
    assert response.status_code == 400


def test_a_header_name_with_a_trailing_newline_is_400(api):
    response = api.post("/v1/tasks", cron_task(headers={"X-Trace\n": "1"}), format="json")
    assert response.status_code == 400
    assert "headers" in response.json()["error"]["fields"]


@pytest.mark.parametrize("value", ["a\x01b", "a\x1bb", "a\x7fb", "a\rb"])
def test_a_header_value_with_a_control_character_is_400(api, value):
    response = api.post("/v1/tasks", cron_task(headers={"X-Trace": value}), format="json")
    assert response.status_code == 400


def test_header_values_are_kept_exactly_as_given(api):
    response = api.post("/v1/tasks", cron_task(headers={"X-Pad": "  a\tb  "}), format="json")
    assert response.status_code == 201
    assert response.json()["headers"] == {"X-Pad": "  a\tb  "}


def test_headers_over_8_kib_in_all_are_400(api):
    headers = {f"X-H{n}": "v" * 1000 for n in range(9)}
    response = api.post("/v1/tasks", cron_task(headers=headers), format="json")
    assert response.status_code == 400
    assert "8192" in response.json()["error"]["fields"]["headers"]


def test_a_url_with_surrounding_spaces_is_refused_not_trimmed(api):
    response = api.post("/v1/tasks", cron_task(url=" https://93.184.216.34/hook"), format="json")
    assert response.status_code == 400
    assert "url" in response.json()["error"]["fields"]


def test_a_secret_name_with_a_trailing_newline_is_400(api):
    response = api.put("/v1/secrets/crm%0A", {"value": "Bearer x"}, format="json")
    assert response.status_code in (400, 404)
    assert api.get("/v1/secrets").json()["results"] == []


@pytest.mark.parametrize("value", ["Bearer \x1b[31m", "Bearer a\x00", "Bearer a\nb"])
def test_a_secret_value_with_a_control_character_is_400(api, value):
    assert api.put("/v1/secrets/crm", {"value": value}, format="json").status_code == 400


def test_a_secret_value_is_kept_exactly_as_given(api, tenant):
    from tasks.secrets import secret_values

    api.put(
        "/v1/secrets/crm",
        {"value": " Bearer\tx ", "allowed_hosts": ["93.184.216.34"]},
        format="json",
    )
    found = secret_values(refs={(str(tenant.id), "crm")}).values
    assert found == {(str(tenant.id), "crm"): " Bearer\tx "}


def test_a_one_off_task_with_an_unknown_time_zone_is_400(api):
    response = api.post("/v1/tasks", one_off_task(timezone="Mars/Olympus"), format="json")
    assert response.status_code == 400
    assert "timezone" in response.json()["error"]["fields"]


def test_a_host_the_system_resolver_does_not_answer_in_time_is_400(api, monkeypatch):
    def slow_resolver(*args, **kwargs):
        time.sleep(5)  # a DNS server that does not answer
        raise OSError("timed out")

    # Only the task's lookup: Redis's client resolves its own address with getaddrinfo too.
    monkeypatch.setattr(dns_lookup, "system_lookup", slow_resolver)
    started = time.monotonic()
    response = api.post("/v1/tasks", cron_task(url="https://slow.example.com/"), format="json")
    assert response.status_code == 400
    assert "could not be resolved in time" in response.json()["error"]["fields"]["url"]
    assert time.monotonic() - started < settings.RESOLVE_DEADLINE_SECONDS + 1.5
