"""One tenant's batches of names that never answer do not delay another tenant's create in
the same API process (real gunicorn, one worker, a real DNS server on loopback)."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.conf import settings

from tasks.auth import issue_token
from tasks.models import Tenant
from tests.conftest import cron_task
from tests.dns_server import LoopbackDns
from tests.processes import ApiServer, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dns_server():
    server = LoopbackDns()
    yield server
    server.close()


@pytest.fixture
def server(tmp_path, dns_server):
    env = {"RESOLVER_NAMESERVERS": dns_server.address, "GUNICORN_THREADS": "8"}
    api = ApiServer(tmp_path / "api.log", workers=1, env=env)
    yield api
    api.stop()


def post(server, tenant, path: str, body: dict) -> tuple[requests.Response, float]:
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}
    started = time.monotonic()
    response = requests.post(server.url(path), json=body, headers=headers, timeout=60)
    return response, time.monotonic() - started


def test_another_tenants_create_answers_at_once_during_hanging_batches(
    server, dns_server, tenant, other_tenant
):
    Tenant.objects.filter(id=tenant.id).update(create_burst=1000)  # 6 batches of 100
    names = [cron_task(url=f"https://n{n}.hang.test/") for n in range(100)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        batches = [
            pool.submit(post, server, tenant, "/v1/tasks/batch", {"tasks": names}) for _ in range(6)
        ]
        wait_until(lambda: dns_server.dropped >= 4, timeout=10, message="no lookup hung")
        created, took = post(server, other_tenant, "/v1/tasks", cron_task(url="https://a.ok.test/"))
        assert created.status_code == 201, created.text
        assert took < 1.5  # the hanging batches take their whole deadline (2.5 s)
        for batch in batches:
            response, batch_took = batch.result()
            assert response.status_code == 200, response.text
            assert {item["status"] for item in response.json()["results"]} == {400}
            assert batch_took < settings.RESOLVE_DEADLINE_SECONDS + 3
