"""Deleting a flow lets the jobs it held back go, in the same transaction; tasks keep their
key, and the flow is made again with the defaults when next used."""

import pytest

from flows.models import Flow, FlowWait
from jobs.models import Job
from tests.flows.claims import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


@pytest.fixture
def paused_with_jobs(api, tenant, make_job):
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    api.post("/v1/flows/crm/pause")
    jobs = [make_job(URL, flow_key="crm") for _ in range(3)]
    assert claim().jobs == []
    assert Job.objects.filter(status="throttled").count() == 3
    return jobs


def test_delete_sends_its_parked_jobs_back_to_pending(api, paused_with_jobs):
    assert api.delete("/v1/flows/crm").status_code == 204
    assert set(Job.objects.values_list("status", flat=True)) == {"pending"}
    assert FlowWait.objects.count() == 0


def test_a_deleted_flows_key_is_made_anew_with_the_defaults_when_next_used(api, paused_with_jobs):
    api.delete("/v1/flows/crm")
    assert len(claim().jobs) == 3  # no longer paused: the new flow has no limits
    flow = Flow.objects.get(key="crm")
    assert not flow.paused and flow.parallelism is None and flow.breaker_failures == 10
    assert {job.task.flow_key for job in Job.objects.select_related("task")} == {"crm"}


def test_delete_leaves_other_flows_parked_jobs_alone(api, paused_with_jobs, make_job):
    api.post("/v1/flows/other/pause")
    other = make_job(URL, flow_key="other")
    claim()
    api.delete("/v1/flows/crm")
    other.refresh_from_db()
    assert other.status == "throttled"
    assert FlowWait.objects.filter(job_id=other.id).exists()


def test_the_delete_entry_counts_the_jobs_it_let_go(api, paused_with_jobs):
    from audit.models import AuditEntry

    api.delete("/v1/flows/crm")
    assert AuditEntry.objects.get(action="flow.delete").changes["released"] == 3
