"""A real API (gunicorn on the test database) for the SDK and the CLI, a tenant's client,
and the CLI run as a real subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from atcron import Client

from tenants.api_keys.services import api_key_create
from tests.processes import ROOT, ApiServer

CLIENT_SRC = ROOT / "client" / "src"


@pytest.fixture(scope="session")
def server(django_db_setup, django_db_blocker, tmp_path_factory):
    """One server for every client test: each test has a tenant of its own."""
    with django_db_blocker.unblock():
        api = ApiServer(tmp_path_factory.mktemp("sdk") / "api.log", workers=1)
    yield api
    api.stop(timeout=40)  # beyond gunicorn's graceful 20 s, on a loaded machine


@pytest.fixture
def base_url(server) -> str:
    return server.url("")


@pytest.fixture
def token(tenant) -> str:
    """A write API key of the tenant: what an integration uses (tests/client/test_sdk_auth.py
    checks a JWT works as well)."""
    return api_key_create(
        tenant=tenant, actor="tests", name="tests", scope="write", expires_at=None
    )[1]


@pytest.fixture
def sdk(base_url, token):
    with Client(base_url, token) as client:
        yield client


CliRun = Callable[..., subprocess.CompletedProcess]


@pytest.fixture
def cli(tmp_path) -> CliRun:
    """`atcron ARGS...` in its own process, with a HOME of its own (no stray config)."""
    home = tmp_path / "home"
    home.mkdir()

    def run(*args: str, env: dict | None = None, stdin: bytes | None = None):
        full_env = {
            key: value for key, value in os.environ.items() if not key.startswith("ATCRON_")
        }
        full_env |= {"HOME": str(home), "PYTHONPATH": str(CLIENT_SRC), **(env or {})}
        full_env.pop("XDG_CONFIG_HOME", None)
        return subprocess.run(
            [sys.executable, "-m", "atcron", *args],
            env=full_env,
            input=stdin or b"",
            capture_output=True,
            timeout=60,
        )

    run.home = home  # type: ignore[attr-defined]
    return run


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path
