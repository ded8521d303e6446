"""Every Deployment of the manifests (the API, scheduler, executor, reconciler, archiver and
queue gauges) and the migration Job's pod played by `podman kube play` against the host's
MariaDB (tests/deploy/kube_play.py says what is changed to play them here): the Job's
migrate runs to its end, the init containers let the others start once the migrations are
in, the API answers /healthz and /readyz from its pod on a read-only root as uid 10001,
the loop processes write their heartbeats and every pod serves its metrics.

podman (with runc and catatonit) and the image come from scripts/ensure_kube_play.sh.
The pods are on the host's network, so every port they listen on is a free one, gunicorn's
inside the API pod too (GUNICORN_BIND): the image's 127.0.0.1:8010 may be taken here, and
is, during the test."""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import requests
from cryptography.fernet import Fernet
from django.utils import timezone

from execution.models import ProcessHeartbeat
from tests.deploy.kube_play import play_yaml
from tests.processes import ROOT, free_port
from tests.processes import test_database_url as database_url

pytestmark = pytest.mark.django_db(transaction=True)
ENSURE = "scripts/ensure_kube_play.sh"
# kube play returns once every init container has ended: 20 to 55 s here, by load.
PLAY = 240
PODS = [
    "scheduler-api",
    "scheduler-scheduler",
    "scheduler-executor",
    "scheduler-reconciler",
    "scheduler-archiver",
    "scheduler-queue-metrics",
]
JOB = "scheduler-migrate"
# The heartbeat rows of the loop processes (LoopProcess.name; the executor's, its own).
BEATING = {"scheduler", "executor", "reconciler", "archiver", "metrics"}
# podman's defaults for a container's open files ask more than this VM lets runc set.
CONTAINERS_CONF = """[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
[engine.runtimes]
runc = ["/usr/sbin/runc"]
"""


@pytest.fixture(scope="module")
def podman_env(tmp_path_factory) -> dict[str, str]:
    found = subprocess.run([ENSURE], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert found.returncode == 0, f"{ENSURE} failed:\n{found.stderr[-3000:]}"
    conf = tmp_path_factory.mktemp("podman") / "containers.conf"
    conf.write_text(CONTAINERS_CONF)
    return dict(os.environ, CONTAINERS_CONF=str(conf))


def podman(env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["podman", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def keys() -> dict[str, str]:
    return {
        "DATABASE_URL": database_url(),
        "SECRET_KEY": secrets.token_urlsafe(64),
        "JWT_SIGNING_KEY": secrets.token_urlsafe(64),
        "SECRETS_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
    }


@pytest.fixture(scope="module")
def image_gunicorn_port_taken() -> Iterator[None]:
    """127.0.0.1:8010, the image's gunicorn port, held as another program on a developer's
    machine (`make run`) would: a played pod must not need it."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", 8010))
            sock.listen()
        except OSError:
            pass  # already taken by someone else: the same situation
        yield


@pytest.fixture(scope="module")
def played(podman_env, tmp_path_factory, image_gunicorn_port_taken, django_db_setup):
    """One play for the module's tests (each play takes a minute or more here), on the
    test database (django_db_setup: made, and named in the settings, before the pods')."""
    ports = {name: {"metrics": free_port()} for name in PODS}
    ports["scheduler-api"].update(http=free_port(), gunicorn=free_port())
    settings = {
        "HISTORY_BACKEND": "sql",
        "ALLOWED_HOSTS": "localhost",
        "API_METRICS_PORT": str(ports["scheduler-api"]["metrics"]),
        "CACHE_URL": os.environ.get("CACHE_URL", ""),
    }
    manifest = tmp_path_factory.mktemp("kube-play") / "play.yaml"
    manifest.write_text(play_yaml(PODS, ports, settings, keys(), jobs=(JOB,)))
    started = timezone.now()
    try:
        # Inside the try: a play that times out (an init container that never ends) leaves
        # its pods behind too.
        try:
            play = podman(podman_env, "kube", "play", "--replace", str(manifest), timeout=PLAY)
        except subprocess.TimeoutExpired:
            pytest.fail(f"podman kube play took over {PLAY} s:\n{logs(podman_env)}")
        assert play.returncode == 0, play.stderr + logs(podman_env)
        yield ports, started
    finally:
        podman(podman_env, "kube", "down", str(manifest), timeout=120)


def logs(env: dict) -> str:
    names = podman(env, "ps", "-a", "--format", "{{.Names}}").stdout.split()
    return "\n".join(
        f"--- {name}\n{podman(env, 'logs', '--tail', '20', name).stderr[-2000:]}"
        for name in names
        if name.startswith((*PODS, JOB))
    )


def exit_codes(env: dict, prefix: str) -> dict[str, str]:
    """State and exit code of each container whose name starts with `prefix` (no infra)."""
    listed = json.loads(podman(env, "ps", "-a", "--format", "json").stdout or "[]")
    return {
        name: f"{found['State']} {found['ExitCode']}"
        for found in listed
        for name in found["Names"]
        if name.startswith(prefix) and not found.get("IsInfra")
    }


def wait_for(check, seconds: float = 120) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return True
        except requests.RequestException:
            pass
        time.sleep(0.5)
    return False


def get(port: int, path: str) -> requests.Response:
    return requests.get(f"http://127.0.0.1:{port}{path}", headers={"Host": "localhost"}, timeout=5)


def test_the_played_pods_answer_their_probes_and_beat(played, podman_env):
    ports, started = played
    api = ports["scheduler-api"]["http"]
    assert wait_for(lambda: get(api, "/healthz").status_code == 200), logs(podman_env)
    assert get(api, "/healthz").json()["status"] == "ok"
    assert wait_for(lambda: get(api, "/readyz").status_code == 200), logs(podman_env)

    def beating() -> bool:
        names = ProcessHeartbeat.objects.filter(last_seen__gte=started).values_list(
            "name", flat=True
        )
        return set(names) >= BEATING

    assert wait_for(beating), logs(podman_env)
    for name in PODS:
        metrics = get(ports[name]["metrics"], "/metrics")
        assert metrics.status_code == 200 and "scheduler_" in metrics.text, name


def test_the_migration_jobs_pod_runs_migrate_to_its_end(played, podman_env):
    def ended() -> bool:
        states = exit_codes(podman_env, JOB)
        return bool(states) and all(state.startswith("exited") for state in states.values())

    assert wait_for(ended), logs(podman_env)
    states = exit_codes(podman_env, JOB)
    assert states and all(state == "exited 0" for state in states.values()), (
        f"{states}\n{logs(podman_env)}"
    )
