"""Shared fixtures: a real MariaDB (or the SQLite default), tenants, tokens, API clients."""

import os
import socket
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from jobs.models import Job
from scheduler_site.ids import new_id
from tasks.auth import issue_token
from tasks.models import Task, Tenant
from tasks.services import bucket_for
from tests.endpoints import Endpoint

PUBLIC_URL = "https://93.184.216.34/hook"
NOW = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)  # a fixed clock for table-level tests


def pytest_configure(config):
    if os.environ.get("CI") and not os.environ.get("DATABASE_URL"):
        raise pytest.UsageError("CI names its database: DATABASE_URL=mysql://... or sqlite:///...")


CLUSTER_TESTS = Path(__file__).resolve().parent / "cluster"


def pytest_ignore_collect(collection_path, config):
    """tests/cluster needs the 3-node Cassandra cluster: collected only when named
    (`make test-cluster`), never by a run of the whole folder."""
    if collection_path != CLUSTER_TESTS:
        return None
    base = config.invocation_params.dir
    named = (Path(base, arg.split("::")[0]).resolve() for arg in config.args)
    return None if any(path.is_relative_to(CLUSTER_TESTS) for path in named) else True


def pytest_sessionstart(session):
    """A missing database or Redis is a failure with a clear message, never a skip."""
    _require_redis()
    db = settings.DATABASES["default"]
    if "mysql" not in db["ENGINE"]:
        return
    import MySQLdb

    try:
        MySQLdb.connect(
            host=db["HOST"],
            port=int(db["PORT"] or 3306),
            user=db["USER"],
            passwd=db["PASSWORD"],
            connect_timeout=3,
        ).close()
    except MySQLdb.Error as exc:
        pytest.exit(
            f"MariaDB is not reachable at {db['HOST']}:{db['PORT']} ({exc}); start it with "
            "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd",
            returncode=3,
        )


def _require_redis() -> None:
    location = settings.CACHES["default"].get("LOCATION")
    if not location:
        return
    import redis

    try:
        redis.Redis.from_url(location, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.exit(
            f"Redis is not reachable at {location} ({exc}); start it with scripts/ensure_redis.sh",
            returncode=3,
        )


CASSANDRA_HOSTS = os.environ.get("CASSANDRA_HOSTS", "127.0.0.1").split(",")
CASSANDRA_PORT = int(os.environ.get("CASSANDRA_PORT", "9042"))


@pytest.fixture(scope="session")
def cassandra_node() -> tuple[list[str], int]:
    """The real Cassandra node's hosts and port; one that does not answer fails the test."""
    try:
        socket.create_connection((CASSANDRA_HOSTS[0], CASSANDRA_PORT), timeout=3).close()
    except OSError as exc:
        pytest.fail(
            f"Cassandra is not reachable at {CASSANDRA_HOSTS[0]}:{CASSANDRA_PORT} ({exc}); "
            "start one with scripts/ensure_cassandra.sh",
            pytrace=False,
        )
    return CASSANDRA_HOSTS, CASSANDRA_PORT


@pytest.fixture
def unreachable_cassandra(settings, cassandra_node):
    """The history on a Cassandra that refuses every connection (a real proxy, cut)."""
    from history.stores import close_history_stores
    from tests.tcp_proxy import TcpProxy

    proxy = TcpProxy(cassandra_node[0][0], cassandra_node[1])
    proxy.cut()
    settings.HISTORY_BACKEND = "cassandra"
    settings.CASSANDRA_HOSTS = ["127.0.0.1"]
    settings.CASSANDRA_PORT = proxy.port
    close_history_stores()
    yield proxy
    close_history_stores()
    proxy.close()


@pytest.fixture(scope="session")
def cassandra_store(cassandra_node):
    """A history store in a keyspace of its own for this test session, dropped at the end.
    Tests in it keep apart by using tenants and tasks of their own."""
    from history.cassandra_store import CassandraHistoryStore

    hosts, port = cassandra_node
    keyspace = f"test_{uuid.uuid4().hex[:16]}"
    store = CassandraHistoryStore.connect(hosts, keyspace, port=port)
    store.create_schema()
    yield store
    store.session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}")
    store.close()


@pytest.fixture
def tenant(db) -> Tenant:
    return Tenant.objects.create(name="acme")


@pytest.fixture
def other_tenant(db) -> Tenant:
    return Tenant.objects.create(name="globex")


def client_for(tenant: Tenant) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {issue_token(tenant)}")
    return client


@pytest.fixture
def api(tenant) -> APIClient:
    return client_for(tenant)


@pytest.fixture
def other_api(other_tenant) -> APIClient:
    return client_for(other_tenant)


def cron_task(**overrides) -> dict:
    body = {"name": "nightly", "cron": "0 3 * * *", "timezone": "UTC", "url": PUBLIC_URL}
    body.update(overrides)
    return body


def one_off_task(**overrides) -> dict:
    body = {"name": "once", "run_at": "2030-01-01T09:00:00Z", "url": PUBLIC_URL}
    body.update(overrides)
    return body


@pytest.fixture
def make_task(api):
    def create(**overrides) -> dict:
        response = api.post("/v1/tasks", cron_task(**overrides), format="json")
        assert response.status_code == 201, response.content
        return response.json()

    return create


@pytest.fixture
def add_task(tenant):
    def add(**fields) -> Task:
        task_id = fields.pop("id", None) or new_id()
        values = {
            "tenant": tenant,
            "url": "https://93.184.216.34/hook",
            "cron": "* * * * *",
            "timezone": "UTC",
            "next_run_at": NOW,
            "bucket": bucket_for(task_id),
        }
        values.update(fields)
        _grant_priority_0_if_used(values["tenant"], values.get("priority"))
        return Task.objects.create(id=task_id, **values)

    return add


def _grant_priority_0_if_used(tenant: Tenant, priority: int | None) -> None:
    """Priority 0 work is an operator's grant: without it the claim demotes it."""
    if priority == 0 and not tenant.allow_critical:
        Tenant.objects.filter(id=tenant.id).update(allow_critical=True)
        tenant.allow_critical = True


@pytest.fixture
def endpoint():
    server = Endpoint()
    yield server
    server.close()


@pytest.fixture
def make_job(tenant):
    def make(url: str, *, due: datetime | None = None, task_tenant=None, **fields) -> Job:
        owner = task_tenant or tenant
        task_fields = {
            key: fields.pop(key)
            for key in (
                "method",
                "headers",
                "body",
                "secret_ref",
                "on_success_url",
                "on_failure_url",
                "flow_key",
            )
            if key in fields
        }
        task_id = new_id()
        task = Task.objects.create(
            id=task_id,
            tenant=owner,
            url=url,
            run_at=datetime.now(UTC),
            status="completed",
            bucket=bucket_for(task_id),
            **task_fields,
        )
        moment = due or datetime.now(UTC)
        _grant_priority_0_if_used(owner, fields.get("priority"))
        return Job.objects.create(
            tenant=owner, task=task, scheduled_at=moment, next_attempt_at=moment, **fields
        )

    return make


@pytest.fixture
def loopback_dns(settings):
    """A real DNS server on loopback (tests/dns_server.py), asked instead of the system's."""
    from tests.dns_server import LoopbackDns

    server = LoopbackDns()
    settings.RESOLVER_NAMESERVERS = [server.address]
    yield server
    server.close()
