"""Run now makes its job at the priority the tenant's grant allows today."""

from jobs.models import Job
from tasks.models import Tenant


def run_now_priority(api, task_id: str) -> int:
    response = api.post(f"/v1/tasks/{task_id}/run")
    assert response.status_code == 202, response.content
    return Job.objects.get(id=response.json()["id"]).priority


def test_run_now_of_a_priority_0_task_is_priority_0_with_the_grant(api, make_task, tenant):
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    assert run_now_priority(api, make_task(priority=0)["id"]) == 0


def test_run_now_after_the_grant_was_withdrawn_is_priority_1(api, make_task, tenant):
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    task = make_task(priority=0)
    Tenant.objects.filter(id=tenant.id).update(allow_critical=False)
    assert run_now_priority(api, task["id"]) == 1
