"""scripts/http_probe.py, the container health check of docker-compose.yml, against a real
HTTP endpoint: healthy on a 200 only."""

import subprocess
import sys
from pathlib import Path

from tests.endpoints import Endpoint
from tests.processes import free_port

PROBE = Path(__file__).resolve().parent.parent / "scripts" / "http_probe.py"


def probe(url: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PROBE), url], capture_output=True, text=True)


def test_a_200_is_healthy(endpoint):
    assert probe(endpoint.url("/ok")).returncode == 0


def test_an_unavailable_answer_is_unhealthy_and_says_why(endpoint):
    done = probe(endpoint.url("/status/503"))
    assert done.returncode == 1 and "503" in done.stderr


def test_nothing_listening_is_unhealthy():
    done = probe(f"http://127.0.0.1:{free_port()}/readyz")
    assert done.returncode == 1 and "refused" in done.stderr.lower()


def test_a_slow_answer_is_unhealthy():
    endpoint = Endpoint()
    try:
        done = probe(endpoint.url("/slow/5"))
    finally:
        endpoint.close()
    assert done.returncode == 1 and "timed out" in done.stderr
