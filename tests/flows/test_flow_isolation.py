"""Flows are per tenant: another tenant's key is a 404 and never listed."""

import pytest

from flows.models import Flow

pytestmark = pytest.mark.django_db


def test_another_tenants_flow_is_404_for_every_route(api, other_api):
    api.put("/v1/flows/crm", {"parallelism": 2}, format="json")
    assert other_api.get("/v1/flows/crm").status_code == 404
    assert other_api.delete("/v1/flows/crm").status_code == 404
    assert other_api.post("/v1/flows/crm/resume").status_code == 404
    assert Flow.objects.filter(key="crm").count() == 1


def test_another_tenants_flows_are_never_listed(api, other_api):
    api.put("/v1/flows/crm", {}, format="json")
    assert other_api.get("/v1/flows").json()["results"] == []


def test_two_tenants_use_one_key_name_independently(api, other_api):
    api.put("/v1/flows/crm", {"parallelism": 2}, format="json")
    assert other_api.put("/v1/flows/crm", {"rate": 7}, format="json").status_code == 201
    api.post("/v1/flows/crm/pause")
    theirs = other_api.get("/v1/flows/crm").json()
    assert (theirs["parallelism"], theirs["rate"], theirs["paused"]) == (None, 7, False)
    assert api.get("/v1/flows/crm").json()["parallelism"] == 2
