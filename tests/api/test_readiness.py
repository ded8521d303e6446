"""/readyz under real gunicorn: 200 while the database and the history store answer, 503
naming the one that does not when it is really cut (through a TCP proxy)."""

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
def proxies():
    opened: list[TcpProxy] = []

    def open_proxy(host: str, port: int) -> TcpProxy:
        opened.append(TcpProxy(host, port))
        return opened[-1]

    yield open_proxy
    for proxy in opened:
        proxy.close()


@pytest.fixture
def servers():
    started: list[ApiServer] = []

    def start(log_path, env: dict) -> ApiServer:
        started.append(ApiServer(log_path, workers=1, env=env))
        return started[-1]

    yield start
    for server in started:
        server.stop()


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
def cassandra_server(proxies, servers, cassandra_node, cassandra_store, tmp_path):
    """An API with its history on the real Cassandra node, through a proxy; returns both."""
    hosts, port = cassandra_node
    proxy = proxies(hosts[0], port)
    env = {
        "HISTORY_BACKEND": "cassandra",
        "CASSANDRA_HOSTS": "127.0.0.1",
        "CASSANDRA_PORT": str(proxy.port),
        "CASSANDRA_KEYSPACE": cassandra_store.keyspace,
    }
    return servers(tmp_path / "api.log", env), proxy


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
    response = ready(server)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "history": "unavailable"},
    }


def test_readyz_is_200_again_once_cassandra_is_back(cassandra_server):
    server, proxy = cassandra_server
    ready(server)
    proxy.cut()
    assert ready(server).status_code == 503
    proxy.restore()
    wait_until(lambda: ready(server).status_code == 200, timeout=30, message="still not ready")
