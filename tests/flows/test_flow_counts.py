"""A flow shows how many of its jobs wait and how many of its calls are out, read for a
whole list page at once."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.models import Job
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


@pytest.fixture
def limited(api, tenant):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    api.put("/v1/flows/crm", {"parallelism": 2}, format="json")


def test_waiting_and_in_flight_count_the_flows_jobs(api, limited, make_job):
    for _ in range(5):
        make_job(URL, flow_key="crm")
    claim()
    body = api.get("/v1/flows/crm").json()
    assert (body["in_flight"], body["waiting"]) == (2, 3)


def test_a_cancelled_parked_job_no_longer_counts_as_waiting(api, limited, make_job):
    for _ in range(3):
        make_job(URL, flow_key="crm")
    claim()
    parked = Job.objects.filter(status="throttled").first()
    assert api.post(f"/v1/jobs/{parked.id}/cancel").status_code == 202
    assert api.get("/v1/flows/crm").json()["waiting"] == 0


def test_the_list_reads_the_counts_in_a_constant_number_of_queries(api, limited):
    def queries_for_list() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get("/v1/flows").status_code == 200
        return len(captured)

    few = queries_for_list()
    for index in range(10):
        api.put(f"/v1/flows/more-{index}", {"rate": 5}, format="json")
    assert queries_for_list() == few
