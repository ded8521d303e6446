"""The console's pages through Django's test client, with the history on either store."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User

from history.records import AttemptRecord, HistoryRecord
from history.sql_store import SqlHistoryStore
from history.stores import close_history_stores
from scheduler_site.ids import new_id

NOW = datetime.now(UTC).replace(microsecond=0)


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture(params=["sql", "cassandra"])
def history(request, settings, db):
    """The history store the console reads, on each engine (the Cassandra keyspace is the
    session's: tests keep apart by their own tenants and tasks)."""
    if request.param == "sql":
        settings.HISTORY_BACKEND = "sql"
        store = SqlHistoryStore()
    else:
        store = request.getfixturevalue("cassandra_store")
        hosts, port = request.getfixturevalue("cassandra_node")
        settings.HISTORY_BACKEND = "cassandra"
        settings.CASSANDRA_HOSTS = hosts
        settings.CASSANDRA_PORT = port
        settings.CASSANDRA_KEYSPACE = store.keyspace
    close_history_stores()
    yield store
    close_history_stores()


@dataclass
class Archived:
    """Finished jobs as the archiver writes them."""

    store: object
    written: list[HistoryRecord] = field(default_factory=list)

    def job(self, task, *, minutes_ago: float = 10, **fields) -> HistoryRecord:
        scheduled = NOW - timedelta(minutes=minutes_ago)
        values = dict(
            id=new_id(),
            tenant_id=task.tenant_id,
            task_id=task.id,
            scheduled_at=scheduled,
            status="succeeded",
            attempt=2,
            max_attempts=5,
            priority=5,
            started_at=scheduled + timedelta(seconds=30),
            finished_at=scheduled + timedelta(seconds=31),
            http_status=200,
            response_body="thanks",
            duration_ms=41,
            attempts=(
                AttemptRecord(1, scheduled, "retry", 30000, None, "timed out after 30 s"),
                AttemptRecord(2, scheduled + timedelta(seconds=30), "succeeded", 41, 200),
            ),
        )
        values.update(fields)
        record = HistoryRecord(**values)
        self.store.write([record])
        return record


@pytest.fixture
def archived(history) -> Archived:
    return Archived(history)
