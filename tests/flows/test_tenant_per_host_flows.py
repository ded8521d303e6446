"""The tenant setting per_host_flows: shown and edited on /v1/tenant; turning it on marks
the tenant as using flows, and its tasks without a flow_key go through their host's flow."""

import pytest

from audit.models import AuditEntry
from flows.models import Flow
from tasks.models import Tenant
from tests.flows.claims import claim


def patch(api, body):
    return api.patch("/v1/tenant", body, format="json")


@pytest.mark.django_db
def test_it_is_off_by_default_and_shown(api):
    assert api.get("/v1/tenant").json()["per_host_flows"] is False


@pytest.mark.django_db
def test_turning_it_on_marks_the_tenant_as_using_flows(api, tenant):
    response = patch(api, {"per_host_flows": True})
    assert response.status_code == 200 and response.json()["per_host_flows"] is True
    stored = Tenant.objects.get(id=tenant.id)
    assert stored.per_host_flows and stored.uses_flows


@pytest.mark.django_db
def test_turning_it_off_keeps_the_mark(api, tenant):
    patch(api, {"per_host_flows": True})
    response = patch(api, {"per_host_flows": False})
    assert response.json()["per_host_flows"] is False
    assert Tenant.objects.get(id=tenant.id).uses_flows


@pytest.mark.django_db
def test_the_change_is_audited_and_moves_the_version(api):
    before = api.get("/v1/tenant").json()["version"]
    response = patch(api, {"per_host_flows": True})
    assert response.json()["version"] == before + 1
    entry = AuditEntry.objects.get(action="tenant.update")
    assert entry.changes == {"per_host_flows": {"old": False, "new": True}}


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["true", 1, 0, None, "yes", []])
def test_anything_but_true_or_false_is_refused_naming_it(api, tenant, value):
    response = patch(api, {"per_host_flows": value})
    assert response.status_code == 400
    assert "per_host_flows" in response.json()["error"]["fields"]
    assert not Tenant.objects.get(id=tenant.id).uses_flows


@pytest.mark.django_db
def test_uses_flows_stays_read_only(api):
    response = patch(api, {"uses_flows": True})
    assert response.json()["error"]["fields"] == {"uses_flows": "read-only"}


@pytest.mark.django_db(transaction=True)
def test_with_it_on_a_task_without_a_key_goes_through_its_hosts_flow(api, tenant, make_job):
    patch(api, {"per_host_flows": True})
    make_job("http://127.0.0.1:9/path")
    assert len(claim().jobs) == 1
    flow = Flow.objects.get(tenant=tenant)
    assert flow.key == "host:127.0.0.1:9"
    assert (flow.parallelism, flow.rate, flow.breaker_failures) == (None, None, 10)
