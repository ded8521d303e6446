"""/v1/flows: put, read, list, pause, resume and delete a tenant's flows."""

import pytest

from flows.models import Flow

pytestmark = pytest.mark.django_db


def put(api, key: str = "crm", **body):
    return api.put(f"/v1/flows/{key}", body, format="json")


def test_put_makes_a_flow_with_the_defaults_for_what_it_leaves_out(api):
    response = put(api, parallelism=5)
    assert response.status_code == 201
    body = response.json()
    assert body["key"] == "crm"
    assert (body["parallelism"], body["rate"], body["period_seconds"]) == (5, None, 1)
    assert (body["breaker_failures"], body["breaker_cooldown_seconds"]) == (10, 30)
    assert body["paused"] is False
    assert body["circuit"] == {
        "state": "closed",
        "failures": 0,
        "opened_at": None,
        "retry_at": None,
    }
    assert (body["waiting"], body["in_flight"]) == (0, 0)


def test_put_again_replaces_every_setting_and_answers_200(api):
    put(api, parallelism=5, rate=10, period_seconds=60)
    response = put(api, rate=3)
    assert response.status_code == 200
    body = response.json()
    assert (body["parallelism"], body["rate"], body["period_seconds"]) == (None, 3, 1)


def test_null_clears_a_limit(api):
    put(api, parallelism=5)
    assert put(api, parallelism=None).json()["parallelism"] is None


def test_put_keeps_the_pause_and_the_circuit(api, tenant):
    api.post("/v1/flows/crm/pause")
    Flow.objects.filter(key="crm").update(circuit_state="open", failures=10)
    body = put(api, parallelism=2).json()
    assert body["paused"] is True
    assert body["circuit"]["state"] == "open" and body["circuit"]["failures"] == 10


def test_get_of_a_key_that_names_no_flow_is_404(api):
    response = api.get("/v1/flows/nothing-yet")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_get_shows_the_flow(api):
    put(api, "host:api.example.com:8443", rate=4)
    body = api.get("/v1/flows/host:api.example.com:8443").json()
    assert body["key"] == "host:api.example.com:8443" and body["rate"] == 4


def test_the_list_pages_through_the_tenants_flows_by_key(api):
    for key in ("b", "a", "c"):
        put(api, key)
    first = api.get("/v1/flows?limit=2").json()
    assert [flow["key"] for flow in first["results"]] == ["a", "b"]
    second = api.get(first["next"]).json()
    assert [flow["key"] for flow in second["results"]] == ["c"]
    assert second["next"] is None


def test_the_list_refuses_an_unknown_query_parameter(api):
    response = api.get("/v1/flows?key=a")
    assert response.status_code == 400
    assert "key" in response.json()["error"]["fields"]


def test_pause_stops_the_flow_and_marks_when(api):
    put(api)
    response = api.post("/v1/flows/crm/pause")
    assert response.status_code == 200
    assert response.json()["paused"] is True
    assert Flow.objects.get(key="crm").stopped_at is not None


def test_pause_of_a_key_that_names_no_flow_makes_it_paused(api):
    response = api.post("/v1/flows/new-key/pause")
    assert response.status_code == 200
    flow = Flow.objects.get(key="new-key")
    assert flow.paused and flow.parallelism is None and flow.breaker_failures == 10


def test_resume_lets_the_flow_go_on(api):
    api.post("/v1/flows/crm/pause")
    response = api.post("/v1/flows/crm/resume")
    assert response.status_code == 200
    assert response.json()["paused"] is False


def test_resume_of_a_key_that_names_no_flow_is_404(api):
    assert api.post("/v1/flows/nothing/resume").status_code == 404


def test_delete_removes_the_flow_and_a_second_delete_is_404(api):
    put(api)
    assert api.delete("/v1/flows/crm").status_code == 204
    assert not Flow.objects.filter(key="crm").exists()
    assert api.delete("/v1/flows/crm").status_code == 404
