"""Flow keys are case-sensitive on both databases: `crm` and `CRM` are two flows, and a
claim of jobs naming either finds its own."""

import pytest

from flows.models import Flow
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)


def test_keys_differing_in_case_are_two_flows(api):
    api.put("/v1/flows/crm", {"parallelism": 1}, format="json")
    assert api.put("/v1/flows/CRM", {"parallelism": 3}, format="json").status_code == 201
    assert api.get("/v1/flows/crm").json()["parallelism"] == 1
    assert [flow["key"] for flow in api.get("/v1/flows").json()["results"]] == ["CRM", "crm"]


def test_a_claim_of_jobs_whose_keys_differ_in_case_lets_each_through_its_own_flow(
    api, tenant, make_job
):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    api.put("/v1/flows/crm", {"parallelism": 1}, format="json")
    make_job("http://127.0.0.1:9/", flow_key="CRM")
    make_job("http://127.0.0.1:9/", flow_key="crm")
    assert len(claim().jobs) == 2
    assert set(Flow.objects.values_list("key", flat=True)) == {"crm", "CRM"}
