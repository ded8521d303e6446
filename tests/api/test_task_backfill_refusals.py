"""What a backfill refuses: bad ranges (400 naming the field), tasks it cannot see (404) or
run (409), and the creation rate (429)."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from rest_framework.test import APIClient

from jobs.backfill import task_backfill
from jobs.backfill_range import BackfillRange
from jobs.models import Job
from scheduler_site.errors import Conflict
from tasks.models import Task
from tests.api.test_task_backfill import MINUTE, backfill, past_minutes


def refused_field(response, status: int = 400) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


@pytest.fixture
def task_id(make_task) -> str:
    return make_task(cron="* * * * *")["id"]


@pytest.mark.parametrize("field", ["start", "end"])
def test_a_naive_instant_is_400_naming_it(api, task_id, field):
    start, end = past_minutes(2)
    body = {"start": start, "end": end, field: "2026-01-01T00:00:00"}
    error = refused_field(backfill(api, task_id, body["start"], body["end"]))
    assert "UTC offset" in error["fields"][field]


@pytest.mark.parametrize("field", ["start", "end"])
def test_a_missing_instant_is_400_naming_it(api, task_id, field):
    start, end = past_minutes(2)
    body = {"start": start.isoformat(), "end": end.isoformat()}
    del body[field]
    response = api.post(f"/v1/tasks/{task_id}/backfill", body, format="json")
    assert field in refused_field(response)["fields"]


def test_an_unknown_field_is_400_naming_it(api, task_id):
    error = refused_field(backfill(api, task_id, *past_minutes(2), limit=5))
    assert "limit" in error["fields"]


def test_an_empty_range_is_400(api, task_id):
    start, _ = past_minutes(2)
    assert "end" in refused_field(backfill(api, task_id, start, start))["fields"]


def test_a_reversed_range_is_400(api, task_id):
    start, end = past_minutes(2)
    assert "end" in refused_field(backfill(api, task_id, end, start))["fields"]


def test_a_range_ending_in_the_future_is_400(api, task_id):
    start = datetime.now(UTC) - MINUTE
    error = refused_field(backfill(api, task_id, start, start + 10 * MINUTE))
    assert "end" in error["fields"]
    assert not Job.objects.filter(task_id=task_id).exists()


def test_a_start_older_than_the_history_keeps_is_400(api, task_id):
    _, end = past_minutes(1)
    error = refused_field(backfill(api, task_id, end - timedelta(days=31), end))
    assert "30 days" in error["fields"]["start"]


def test_a_start_far_in_the_past_is_400_not_an_error(api, task_id):
    _, end = past_minutes(1)
    assert "start" in refused_field(backfill(api, task_id, "0001-01-01T00:00:00Z", end))["fields"]


def test_1000_instants_are_made_in_one_request(api, task_id):
    response = backfill(api, task_id, *past_minutes(1000))
    assert response.status_code == 202, response.content
    assert response.json() == {"made": 1000, "existing": 0, "instants": 1000}
    assert Job.objects.filter(task_id=task_id).count() == 1000


def test_1001_instants_are_400_naming_the_limit(api, task_id):
    error = refused_field(backfill(api, task_id, *past_minutes(1001)))
    assert "1000" in error["message"] and "1000" in error["fields"]["end"]
    assert not Job.objects.filter(task_id=task_id).exists()


def test_backfill_of_another_tenants_task_is_404(other_api, task_id):
    error = refused_field(backfill(other_api, task_id, *past_minutes(2)), 404)
    assert error["code"] == "not_found"
    assert not Job.objects.filter(task_id=task_id).exists()


def test_backfill_of_an_unknown_task_is_404(api):
    response = backfill(api, "01a2292c-0fbc-7f00-bf2d-4eb9407788b4", *past_minutes(2))
    assert refused_field(response, 404)["code"] == "not_found"


def test_backfill_of_a_deleted_task_is_409(api, task_id):
    api.delete(f"/v1/tasks/{task_id}", HTTP_IF_MATCH="*")
    assert refused_field(backfill(api, task_id, *past_minutes(2)), 409)["code"] == "task_deleted"


def test_backfill_of_a_one_off_task_is_409(api, make_task):
    one_off = make_task(cron=None, run_at="2030-01-01T09:00:00Z")
    error = refused_field(backfill(api, one_off["id"], *past_minutes(2)), 409)
    assert error["code"] == "not_recurring"


def test_backfill_for_a_stopped_tenant_is_refused_as_run_now_is(task_id, tenant):
    # The API refuses a stopped tenant's token (401); the use case refuses it too, for a
    # tenant stopped after its request was let in.
    tenant.is_active = False
    tenant.save()
    with pytest.raises(Conflict) as refused:
        task_backfill(
            actor="tests",
            tenant=tenant,
            task_id=uuid.UUID(task_id),
            window=BackfillRange(*past_minutes(2)),
        )
    assert refused.value.code == "tenant_stopped"
    assert not Job.objects.filter(task_id=task_id).exists()


def test_a_backfill_costs_one_creation_of_the_rate(api, task_id, tenant):
    tenant.create_rate, tenant.create_burst = 1, 2
    tenant.save()
    first, second = past_minutes(600), past_minutes(600, ago=700)
    assert backfill(api, task_id, *first).json()["made"] == 600  # more runs than the burst
    assert backfill(api, task_id, *second).status_code == 202
    response = backfill(api, task_id, *past_minutes(1, ago=1))
    assert refused_field(response, 429)["code"] == "rate_limited"
    assert int(response["Retry-After"]) >= 1
    assert Task.objects.get(id=task_id).runs_made == 0


@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2026-13-01T00:00:00Z"]
)
def test_an_instant_at_the_edge_of_time_is_400(api, task_id, moment):
    start, end = past_minutes(2)
    assert refused_field(backfill(api, task_id, moment, end))["code"] == "invalid"
    assert refused_field(backfill(api, task_id, start, moment))["code"] == "invalid"


def test_the_openapi_schema_describes_backfill_with_examples(db):
    response = APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    route = response.json()["paths"]["/v1/tasks/{task_id}/backfill"]["post"]
    assert "at most once ever" in route["description"]
    body = route["requestBody"]["content"]["application/json"]
    assert set(next(iter(body["examples"].values()))["value"]) == {"start", "end"}
    answer = route["responses"]["202"]["content"]["application/json"]
    assert next(iter(answer["examples"].values()))["value"] == {
        "made": 4,
        "existing": 2,
        "instants": 6,
    }
    assert {"400", "404", "409", "429", "503"} <= set(route["responses"])
