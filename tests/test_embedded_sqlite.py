"""The embedded default: a fresh SQLite database migrates and serves the API under gunicorn."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.processes import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def sqlite_env(tmp_path) -> dict:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.sqlite3'}")
    return env


def manage(env: dict, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return result.stdout.strip()


def wait_until_up(url: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, "gunicorn exited"
        try:
            requests.get(url, timeout=1)
            return
        except (requests.ConnectionError, requests.Timeout):
            # The socket accepts before the worker has loaded Django: a slow first answer
            # under load is a worker still starting, not a failure.
            time.sleep(0.1)
    raise AssertionError("gunicorn did not start")


def test_fresh_sqlite_database_serves_the_task_api(sqlite_env):
    manage(sqlite_env, "migrate", "--noinput")
    tenant_id = manage(sqlite_env, "create_tenant", "embedded")
    token = manage(sqlite_env, "issue_token", tenant_id)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "scheduler_site.wsgi",
            "-c",
            "scheduler_site/gunicorn.conf.py",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=sqlite_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(f"{base}/healthz", server)
        auth = {"Authorization": f"Bearer {token}"}
        created = requests.post(
            f"{base}/v1/tasks",
            json={"cron": "*/5 * * * *", "url": "https://93.184.216.34/hook"},
            headers={**auth, "Idempotency-Key": "k"},
            timeout=10,
        )
        assert created.status_code == 201, created.text
        replayed = requests.post(
            f"{base}/v1/tasks",
            json={"cron": "*/5 * * * *", "url": "https://93.184.216.34/hook"},
            headers={**auth, "Idempotency-Key": "k"},
            timeout=10,
        )
        assert replayed.json()["id"] == created.json()["id"]
        listed = requests.get(f"{base}/v1/tasks", headers=auth, timeout=10).json()
        assert [task["id"] for task in listed["results"]] == [created.json()["id"]]
    finally:
        server.terminate()
        server.wait(timeout=30)
