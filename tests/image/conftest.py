"""The image built once per session on the local base, a MariaDB database of its own on the
host's server (migrated by the image itself), a tenant and its token made with the image's
management commands (the bootstrap step of the README), and the image's API running."""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from cryptography.fernet import Fernet
from django.conf import settings

from tests.dockerignore import read_patterns, sent_files
from tests.image.container import Container
from tests.image.podman import ROOT, build_image, remove_leftovers, require_podman, run_once
from tests.processes import free_port, wait_until


@dataclass(frozen=True)
class BuiltImage:
    sent: frozenset[str]  # the checkout's files the build context carried, by .dockerignore
    build_seconds: float


@pytest.fixture(scope="session")
def image(tmp_path_factory) -> BuiltImage:
    require_podman()
    remove_leftovers()
    # A run/ folder is in the checkout (as after `make run`), so its absence proves the rule.
    canary = ROOT / "run" / "image-test-canary"
    canary.parent.mkdir(exist_ok=True)
    canary.write_text("a development machine's file\n")
    try:
        sent = frozenset(sent_files(ROOT, read_patterns(ROOT / ".dockerignore")))
        seconds = build_image(tmp_path_factory.mktemp("image") / "build.log")
    finally:
        canary.unlink()
    print(f"\nimage built in {seconds:.1f}s")
    yield BuiltImage(sent, seconds)
    remove_leftovers()


@pytest.fixture(scope="session")
def image_database() -> str:
    """A database of these tests' own on the suite's MariaDB server, dropped at the end."""
    import MySQLdb

    db = settings.DATABASES["default"]
    if "mysql" not in db["ENGINE"]:
        pytest.fail("the image tests run against MariaDB: DATABASE_URL=mysql://...")
    name = f"image_test_{uuid.uuid4().hex[:10]}"
    server = dict(host=db["HOST"], port=int(db["PORT"] or 3306), user=db["USER"])
    connection = MySQLdb.connect(**server, passwd=db["PASSWORD"])
    connection.cursor().execute(f"CREATE DATABASE {name} CHARACTER SET utf8mb4")
    try:
        yield f"mysql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{server['port']}/{name}"
    finally:
        connection.cursor().execute(f"DROP DATABASE IF EXISTS {name}")
        connection.close()


@pytest.fixture(scope="session")
def env_file(image, image_database, tmp_path_factory) -> Path:
    """The environment every container gets, on a migrated database."""
    values = {
        "DATABASE_URL": image_database,
        "SECRET_KEY": secrets.token_urlsafe(64),
        "JWT_SIGNING_KEY": secrets.token_urlsafe(64),
        "SECRETS_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "EGRESS_ALLOW": "127.0.0.0/8",  # the test's endpoint on the host
        "ARCHIVE_SUCCEEDED_AFTER_SECONDS": "1",
        "HISTORY_BACKEND": "sql",
    }
    path = tmp_path_factory.mktemp("image-env") / "container.env"
    path.write_text("".join(f"{key}={value}\n" for key, value in values.items()))
    migrated = run_once(["python", "manage.py", "migrate", "--noinput"], path, timeout=600)
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    return path


@pytest.fixture(scope="session")
def tenant_token(env_file) -> str:
    made = run_once(["python", "manage.py", "create_tenant", "image-test"], env_file)
    assert made.returncode == 0, made.stderr
    issued = run_once(["python", "manage.py", "issue_token", made.stdout.strip()], env_file)
    assert issued.returncode == 0, issued.stderr
    return issued.stdout.strip()


@pytest.fixture(scope="session")
def api_url(env_file) -> str:
    """The image's default command (nginx in front of gunicorn) on ports free on the host."""
    port = free_port()
    env = {"PORT": str(port), "GUNICORN_BIND": f"127.0.0.1:{free_port()}"}
    api = Container("api", env_file, [], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: _answers(f"{url}/healthz") or not api.running(), timeout=120, interval=0.5,
            message="the API container's /healthz never answered",
        )  # fmt: skip
        assert api.running(), api.logs()
        yield url
    finally:
        api.stop()


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
