"""The image's API, from its container on the host's MariaDB: the probes, and a tenant's
token (made with the image's own create_tenant and issue_token) reading its tasks."""

import socket
import subprocess
import time

import requests

from tests.image.conftest import _answers
from tests.image.container import Container
from tests.processes import free_port, wait_until


def test_the_containers_api_answers_healthz_and_readyz(api_url):
    assert requests.get(f"{api_url}/healthz", timeout=10).status_code == 200
    ready = requests.get(f"{api_url}/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    assert ready.json()["checks"] == {"database": "ok", "history": "ok"}


def test_a_tenants_token_lists_its_tasks_from_the_container(api_url, tenant_token):
    listed = requests.get(
        f"{api_url}/v1/tasks", headers={"Authorization": f"Bearer {tenant_token}"}, timeout=10
    )
    assert listed.status_code == 200, listed.text
    assert listed.json() == {"results": [], "next": None}
    assert requests.get(f"{api_url}/v1/tasks", timeout=10).status_code == 401


def test_a_stopped_containers_api_finishes_the_request_in_flight(env_file):
    # The orchestrator's SIGTERM (a rolling update, a drain) reaches the container while a
    # client is still sending its request: it gets its answer, not a cut connection.
    port = free_port()
    env = {"PORT": str(port), "GUNICORN_BIND": f"127.0.0.1:{free_port()}"}
    api = Container("api-stop", env_file, [], env=env)
    try:
        wait_until(
            lambda: _answers(f"http://127.0.0.1:{port}/healthz") or not api.running(),
            timeout=120, interval=0.5, message="the API container never answered",
        )  # fmt: skip
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(
                b"POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n"
                b"Connection: close\r\n\r\nab"
            )
            time.sleep(1)
            subprocess.run(["podman", "kill", "--signal", "TERM", api.name], check=True)
            time.sleep(2)
            client.sendall(b"cd")
            answer = client.recv(100)
        assert answer.startswith(b"HTTP/1.1 "), api.logs()
    finally:
        api.stop()
