"""The API as shipped sits behind nginx, which reads whole requests before gunicorn sees
them: half-open connections that would stop gunicorn's threads leave it answering."""

import socket
import subprocess
import time

import pytest
import requests

from tests.processes import ROOT, ApiServer, free_port, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


class Nginx:
    def __init__(self, upstream_port: int, prefix) -> None:
        self.port = free_port()
        self.log = open(prefix.parent / "nginx.out", "wb")  # noqa: SIM115 - closed in stop()
        self.popen = subprocess.Popen(
            [
                "scripts/run_nginx.sh",
                f"127.0.0.1:{self.port}",
                f"127.0.0.1:{upstream_port}",
                prefix,
            ],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_until(self._answers, timeout=20, message="nginx did not start")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _answers(self) -> bool:
        assert self.popen.poll() is None, "nginx exited: see nginx.out"
        try:
            return requests.get(self.url("/healthz"), timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        self.popen.terminate()
        self.popen.wait(timeout=20)
        self.log.close()


@pytest.fixture
def api(tmp_path):
    server = ApiServer(tmp_path / "api.log", workers=1)
    yield server
    server.stop()


@pytest.fixture
def proxy(api, tmp_path):
    nginx = Nginx(api.port, tmp_path / "nginx")
    yield nginx
    nginx.stop()


def half_open(port: int, count: int) -> list[socket.socket]:
    """Connections that start a request and never finish its headers."""
    opened = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        opened.append(sock)
    return opened


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()


def test_200_half_open_connections_leave_the_api_answering_within_a_second(proxy):
    sockets = half_open(proxy.port, 200)
    try:
        started = time.monotonic()
        response = requests.get(proxy.url("/healthz"), timeout=5)
        assert response.status_code == 200
        assert time.monotonic() - started < 1
    finally:
        close_all(sockets)


def test_gunicorn_alone_is_stopped_by_a_few_half_open_connections(api):
    """Why the proxy is there: the same attack on gunicorn directly."""
    sockets = half_open(api.port, 16)
    try:
        with pytest.raises(requests.Timeout):
            requests.get(api.url("/healthz"), timeout=2)
    finally:
        close_all(sockets)


def test_a_body_over_one_mib_is_refused_by_the_proxy_in_the_api_error_shape(proxy):
    response = requests.post(proxy.url("/v1/tasks"), data=b"x" * (1024 * 1024 + 1), timeout=10)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
