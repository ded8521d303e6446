"""Real API servers (gunicorn) for the tests that need one, and TCP proxies to cut or hang
what those servers depend on."""

import pytest

from tests.processes import ApiServer
from tests.tcp_proxy import TcpProxy


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
def cassandra_api(proxies, servers, cassandra_node, cassandra_store, tmp_path):
    """Starts an API with its history on the real Cassandra node, through a proxy."""
    hosts, port = cassandra_node

    def start(**env) -> tuple[ApiServer, TcpProxy]:
        proxy = proxies(hosts[0], port)
        env |= {
            "HISTORY_BACKEND": "cassandra",
            "CASSANDRA_HOSTS": "127.0.0.1",
            "CASSANDRA_PORT": str(proxy.port),
            "CASSANDRA_KEYSPACE": cassandra_store.keyspace,
        }
        return servers(tmp_path / "api.log", env), proxy

    return start
