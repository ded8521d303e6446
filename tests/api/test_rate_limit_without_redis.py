"""The creation rate when Redis (CACHE_URL) cannot be reached: real gunicorn pointed at a
port where nothing listens. Creations still work, each process keeps its own bucket, and
the outage is logged once."""

import pytest
import requests

from tasks.auth import issue_token
from tasks.models import Tenant
from tests.conftest import cron_task
from tests.processes import free_port

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server_without_redis(servers, tmp_path):
    return servers(tmp_path / "api.log", {"CACHE_URL": f"redis://127.0.0.1:{free_port()}/0"})


def create_many(server, tenant, count: int) -> list[int]:
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}
    return [
        requests.post(
            server.url("/v1/tasks"), json=cron_task(name=f"t{n}"), headers=headers, timeout=30
        ).status_code
        for n in range(count)
    ]


def test_with_redis_unreachable_creations_work_and_are_limited_per_process(
    server_without_redis, tenant
):
    Tenant.objects.filter(id=tenant.id).update(create_rate=1, create_burst=5)
    codes = create_many(server_without_redis, tenant, 12)
    assert codes.count(201) in (5, 6)  # the burst, and at most one refill meanwhile
    assert set(codes) == {201, 429}


def test_a_redis_outage_is_logged_once(server_without_redis, tenant):
    Tenant.objects.filter(id=tenant.id).update(create_rate=100, create_burst=100)
    assert set(create_many(server_without_redis, tenant, 4)) == {201}
    log = server_without_redis.log()
    assert log.count("Redis (CACHE_URL) did not answer") == 1
    assert "limited per process" in log
