"""The creation rate and the task quota hold across API processes (real gunicorn servers,
the real Redis and MariaDB), with requests sent at once from many threads."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tasks.auth import issue_token
from tasks.models import Task, Tenant
from tests.conftest import cron_task
from tests.processes import ApiServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_servers(tmp_path):
    servers = [ApiServer(tmp_path / f"api-{n}.log") for n in range(2)]
    yield servers
    for server in servers:
        server.stop()


def create_through(servers, tenant, count: int) -> list[int]:
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}

    def post(n: int) -> int:
        url = servers[n % len(servers)].url("/v1/tasks")
        return requests.post(
            url, json=cron_task(name=f"t{n}"), headers=headers, timeout=30
        ).status_code

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(post, range(count)))


def test_the_creation_burst_is_shared_by_every_api_process(two_servers, tenant):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=10)
    codes = create_through(two_servers, tenant, 30)
    assert codes.count(201) in (10, 11)  # the burst, and at most one refill meanwhile
    assert set(codes) == {201, 429}


def test_concurrent_creations_never_exceed_the_task_quota(two_servers, tenant):
    Tenant.objects.filter(id=tenant.id).update(max_tasks=5, create_rate=0)
    codes = create_through(two_servers, tenant, 24)
    assert codes.count(201) == 5 and codes.count(403) == 19
    assert Task.objects.filter(tenant=tenant).count() == 5


def test_concurrent_creations_far_from_the_quota_never_exceed_it(two_servers, tenant):
    """The bound in task_counts is what both servers read when it says there is room."""
    Tenant.objects.filter(id=tenant.id).update(max_tasks=20, create_rate=0)
    assert create_through(two_servers, tenant, 10) == [201] * 10
    codes = create_through(two_servers, tenant, 30)
    assert codes.count(201) == 10 and codes.count(403) == 20
    assert Task.objects.filter(tenant=tenant).count() == 20


def test_a_stop_refuses_the_tenant_on_every_server_within_a_second(two_servers, tenant):
    from tasks.tenants import tenant_deactivate
    from tests.processes import wait_until

    assert create_through(two_servers, tenant, 4) == [201] * 4  # each server read the tenant
    tenant_deactivate(tenant=tenant, actor="test")
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}

    def refused_by_both() -> bool:
        codes = [requests.get(s.url("/v1/tasks"), headers=headers, timeout=30) for s in two_servers]
        return all(response.status_code == 401 for response in codes)

    assert wait_until(refused_by_both, timeout=5, message="both servers refuse") < 2
