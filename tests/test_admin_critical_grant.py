"""An operator withdraws priority 0 in the tenant's admin page: its waiting work is demoted."""

import pytest
from django.contrib.auth.models import User

from jobs.models import Job
from tasks.models import Tenant


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


def test_unticking_the_grant_demotes_the_tenants_waiting_priority_0_jobs(
    operator_client, make_job, tenant
):
    Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
    job = make_job("https://93.184.216.34/hook", priority=0)
    form = {"name": tenant.name, "concurrency_limit": 1000, "is_active": "on"}
    response = operator_client.post(f"/admin/tasks/tenant/{tenant.id}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert not Tenant.objects.get(id=tenant.id).allow_critical
    assert Job.objects.get(id=job.id).priority == 1
