"""/readyz under real gunicorn: 200 while the database and the history store answer, 503
naming the one that does not when it is really cut or hung (through a TCP proxy), within a
second, and from its last check for a few seconds."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from django.conf import settings

from tests import processes
from tests.processes import ApiServer, wait_until
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.django_db(transaction=True)


def ready(server: ApiServer) -> requests.Response:
    return requests.get(server.url("/readyz"), timeout=30)


@pytest.fixture
def cut_database_server(proxies, servers, tmp_path) -> ApiServer:
    """An API whose database is reached through a proxy that refuses every connection."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        # An embedded install's database is a file: one that cannot be opened is the outage.
        return servers(tmp_path / "api.log", {"DATABASE_URL": "sqlite:////nonexistent/db"})
    proxy = proxies(db["HOST"] or "127.0.0.1", int(db["PORT"] or 3306))
    proxy.cut()
    url = processes.test_database_url().replace(f":{db['PORT'] or 3306}/", f":{proxy.port}/")
    return servers(tmp_path / "api.log", {"DATABASE_URL": url})


@pytest.fixture
def cassandra_server(cassandra_api) -> tuple[ApiServer, TcpProxy]:
    return cassandra_api()


def timed_ready(server: ApiServer) -> tuple[requests.Response, float]:
    started = time.monotonic()
    response = ready(server)
    return response, time.monotonic() - started


def test_readyz_is_200_when_the_database_and_the_history_answer(servers, tmp_path):
    response = ready(servers(tmp_path / "api.log", {}))
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "history": "ok"}}


def test_readyz_is_503_naming_the_database_when_it_cannot_be_reached(cut_database_server):
    response = ready(cut_database_server)
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "unavailable"


def test_healthz_stays_200_while_the_database_cannot_be_reached(cut_database_server):
    response = requests.get(cut_database_server.url("/healthz"), timeout=10)
    assert response.status_code == 200


def test_readyz_is_200_with_the_history_on_a_cassandra_node_that_answers(cassandra_server):
    server, _ = cassandra_server
    assert ready(server).json()["checks"] == {"database": "ok", "history": "ok"}


def test_readyz_is_503_naming_the_history_when_cassandra_is_cut(cassandra_server):
    server, proxy = cassandra_server
    assert ready(server).status_code == 200  # connected before the cut
    proxy.cut()
    # The answer before the cut is served for a few seconds more.
    wait_until(lambda: ready(server).status_code == 503, timeout=20, message="still ready")
    response = ready(server)
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "history": "unavailable"},
    }


def test_readyz_is_200_again_once_cassandra_is_back(cassandra_server):
    server, proxy = cassandra_server
    ready(server)
    proxy.cut()
    wait_until(lambda: ready(server).status_code == 503, timeout=20, message="still ready")
    proxy.restore()
    wait_until(lambda: ready(server).status_code == 200, timeout=30, message="still not ready")


def test_readyz_answers_within_a_second_while_the_history_store_hangs(cassandra_api):
    server, proxy = cassandra_api(READINESS_CACHE_SECONDS="0")
    assert ready(server).status_code == 200  # connected before the store hangs
    proxy.hang()
    for _ in range(3):
        response, took = timed_ready(server)
        assert response.json()["checks"] == {"database": "ok", "history": "unavailable"}
        assert took < 2.5  # the check's 1 s, and a busy machine's slack


def test_readyz_probes_in_a_row_are_served_from_the_last_check(cassandra_api):
    server, proxy = cassandra_api(READINESS_CACHE_SECONDS="60")
    proxy.hang()
    first, _ = timed_ready(server)
    assert first.status_code == 503
    for _ in range(12):
        response, took = timed_ready(server)
        assert response.json() == first.json()
        assert took < 0.9  # under the check's 1 s: not checked again
        assert int(response.headers["Age"]) >= 0
    assert server.log().count("readiness: history did not answer in time") == 1


def test_a_dozen_probes_at_once_of_a_hung_history_leave_healthz_answering(cassandra_api):
    server, proxy = cassandra_api(READINESS_CACHE_SECONDS="1")
    assert ready(server).status_code == 200
    proxy.hang()
    wait_until(lambda: ready(server).status_code == 503, timeout=30, message="still ready")
    with ThreadPoolExecutor(max_workers=12) as pool:
        probes = [pool.submit(timed_ready, server) for _ in range(12)]
        time.sleep(0.2)
        assert requests.get(server.url("/healthz"), timeout=3).status_code == 200
        results = [probe.result() for probe in probes]
    assert {response.status_code for response, _ in results} == {503}
    assert max(took for _, took in results) < 3
