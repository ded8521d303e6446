"""A `read` key reads everything and changes nothing (403); a `write` key and a JWT may."""

import pytest

from tasks.models import Task
from tests.api.test_fuzz_every_route import ROUTES
from tests.conftest import cron_task

UNSAFE = ["POST", "PUT", "PATCH", "DELETE"]
# The schema and its docs are open to anyone, with or without a credential.
TENANT_ROUTES = [route for route in ROUTES if route not in {"/v1/schema", "/v1/docs"}]
# A POST that writes nothing (tenants/api_keys/scope.py): a read key may call it.
CHANGES_NOTHING = {"/v1/schedule-preview"}


@pytest.fixture
def task_id(make_task) -> str:
    return make_task()["id"]


def concrete(route: str, task_id: str) -> str:
    for name in ("{task_id}", "{job_id}", "{key_id}", "{name}", "{key}"):
        route = route.replace(name, task_id)
    return route


@pytest.mark.parametrize("method", UNSAFE)
def test_a_read_key_is_403_on_every_unsafe_method_of_every_route(read_api, task_id, method):
    refused = {
        route: read_api.generic(method, concrete(route, task_id), "{}", "application/json")
        for route in TENANT_ROUTES
        if route not in CHANGES_NOTHING
    }
    statuses = {route: r.status_code for route, r in refused.items()}
    assert statuses == dict.fromkeys(set(TENANT_ROUTES) - CHANGES_NOTHING, 403)
    assert {r.json()["error"]["code"] for r in refused.values()} == {"insufficient_scope"}
    assert Task.objects.get(id=task_id).status == "active"


@pytest.mark.parametrize(
    "path", ["/v1/tasks", "/v1/tenant", "/v1/api-keys", "/v1/dlq", "/v1/secrets", "/v1/audit"]
)
def test_a_read_key_reads(read_api, path):
    assert read_api.get(path).status_code == 200


def test_a_read_key_cannot_read_the_signing_secret_that_signs_calls(read_api):
    refused = read_api.get("/v1/signing-secret")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "insufficient_scope"
    assert "whsec_" not in refused.content.decode()


def test_a_write_key_reads_the_signing_secret(write_api):
    assert write_api.get("/v1/signing-secret").json()["signing_secret"].startswith("whsec_")


def test_a_read_key_previews_a_schedule(read_api):
    body = {"cron": "0 9 * * *", "timezone": "Europe/Madrid", "count": 2}
    previewed = read_api.post("/v1/schedule-preview", body, format="json")
    assert previewed.status_code == 200, previewed.content
    assert len(previewed.json()["runs"]) == 2


def test_a_read_key_reads_one_task(read_api, task_id):
    assert read_api.get(f"/v1/tasks/{task_id}").json()["id"] == task_id


def test_a_read_key_cannot_pause_or_run_a_task(read_api, task_id):
    assert read_api.post(f"/v1/tasks/{task_id}/pause").status_code == 403
    assert read_api.post(f"/v1/tasks/{task_id}/run").status_code == 403
    assert Task.objects.get(id=task_id).status == "active"


def test_a_read_key_cannot_create_a_key(read_api):
    body = {"name": "escalate", "scope": "write"}
    assert read_api.post("/v1/api-keys", body, format="json").status_code == 403


def test_a_read_key_cannot_revoke_itself(read_api, read_key):
    assert read_api.delete(f"/v1/api-keys/{read_key['id']}").status_code == 403
    assert read_api.get("/v1/tasks").status_code == 200


def test_a_write_key_creates_and_pauses_a_task(write_api):
    created = write_api.post("/v1/tasks", cron_task(), format="json")
    assert created.status_code == 201
    paused = write_api.post(f"/v1/tasks/{created.json()['id']}/pause", HTTP_IF_MATCH='"1"')
    assert paused.status_code == 200


def test_a_token_keeps_every_write(api):
    assert api.post("/v1/tasks", cron_task(), format="json").status_code == 201
