"""A job its flow holds back reads as `throttled` in the API, and can be cancelled."""

import pytest
from rest_framework.test import APIClient

from jobs.models import Job
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


@pytest.fixture
def parked(api, tenant, make_job) -> Job:
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    api.post("/v1/flows/crm/pause")
    job = make_job(URL, flow_key="crm")
    assert claim().jobs == []
    job.refresh_from_db()
    assert job.status == "throttled"
    return job


def test_a_parked_job_reads_as_throttled(api, parked):
    assert api.get(f"/v1/jobs/{parked.id}").json()["status"] == "throttled"


def test_a_parked_job_is_throttled_in_its_tasks_runs(api, parked):
    runs = api.get(f"/v1/tasks/{parked.task_id}/jobs").json()["results"]
    assert [run["status"] for run in runs] == ["throttled"]


def test_a_throttled_job_can_be_cancelled(api, parked):
    response = api.post(f"/v1/jobs/{parked.id}/cancel")
    assert response.status_code == 202 and response.json()["status"] == "cancelled"


def test_the_bulk_cancel_takes_throttled_jobs(api, parked):
    body = {"task_id": str(parked.task_id)}
    response = api.post("/v1/jobs/cancel", body, format="json")
    assert response.json() == {"count": 1, "refused": {}}
    parked.refresh_from_db()
    assert parked.status == "cancelled"


def test_a_cancelled_throttled_job_is_never_let_out(api, parked):
    api.post(f"/v1/jobs/{parked.id}/cancel")
    api.post("/v1/flows/crm/resume")
    assert claim().jobs == []
    parked.refresh_from_db()
    assert parked.status == "cancelled"


def test_the_schema_names_throttled_among_the_job_statuses(db):
    schema = APIClient().get("/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "throttled" in schema["components"]["schemas"]["JobStatusEnum"]["enum"]
