"""One contract for every history store: SQL here (MariaDB and SQLite), Cassandra when
CASSANDRA_HOSTS names a cluster."""

import os
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from history.records import HistoryRecord, RunCursor
from history.sql_store import SqlHistoryStore
from scheduler_site.ids import new_id

TENANT, OTHER_TENANT = uuid.uuid4(), uuid.uuid4()
TASK, OTHER_TASK = uuid.uuid4(), uuid.uuid4()
NOW = datetime.now(UTC).replace(microsecond=0)


def cassandra_store():
    from history.cassandra_store import CassandraHistoryStore

    hosts = os.environ["CASSANDRA_HOSTS"].split(",")
    store = CassandraHistoryStore.connect(hosts, f"contract_{uuid.uuid4().hex[:12]}")
    store.create_schema()
    return store


NO_CLUSTER = not os.environ.get("CASSANDRA_HOSTS")
WITH_CLUSTER = pytest.mark.skipif(NO_CLUSTER, reason="no CASSANDRA_HOSTS set")


@pytest.fixture(params=["sql", pytest.param("cassandra", marks=WITH_CLUSTER)])
def store(request, db):
    if request.param == "sql":
        return SqlHistoryStore()
    return cassandra_store()


def record(minutes_ago: float = 0, *, task=TASK, tenant=TENANT, **fields) -> HistoryRecord:
    scheduled = NOW - timedelta(minutes=minutes_ago)
    values = dict(
        id=new_id(),
        tenant_id=tenant,
        task_id=task,
        scheduled_at=scheduled,
        status="succeeded",
        attempt=1,
        max_attempts=5,
        priority=5,
        started_at=scheduled,
        finished_at=scheduled + timedelta(seconds=1),
        http_status=200,
        response_body="ok",
        duration_ms=12,
    )
    values.update(fields)
    return HistoryRecord(**values)


def test_a_written_job_reads_back_as_written(store):
    written = record(error=None, next_attempt_at=None)
    store.write([written])
    assert store.get(tenant_id=TENANT, job_id=written.id) == written


def test_writing_a_job_twice_is_an_upsert(store):
    first = record(status="dead", attempt=3)
    store.write([first])
    store.write([replace(first, status="succeeded", attempt=4)])
    again = store.get(tenant_id=TENANT, job_id=first.id)
    assert (again.status, again.attempt) == ("succeeded", 4)
    assert len(store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)) == 1


def test_another_tenants_job_is_not_found(store):
    written = record()
    store.write([written])
    assert store.get(tenant_id=OTHER_TENANT, job_id=written.id) is None


def test_unknown_job_is_not_found(store):
    assert store.get(tenant_id=TENANT, job_id=uuid.uuid4()) is None


def test_task_runs_come_newest_first(store):
    runs = [record(minutes_ago=m) for m in (5, 1, 3)]
    store.write(runs)
    found = store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)
    assert [r.id for r in found] == [runs[1].id, runs[2].id, runs[0].id]


def test_task_runs_page_with_a_cursor(store):
    runs = [record(minutes_ago=m) for m in range(7)]
    store.write(runs)
    first = store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=3)
    cursor = RunCursor(first[-1].scheduled_at, first[-1].id)
    second = store.task_runs(tenant_id=TENANT, task_id=TASK, before=cursor, limit=3)
    assert [r.id for r in first + second] == [r.id for r in runs[:6]]


def test_runs_at_the_same_instant_are_ordered_by_job_id(store):
    runs = [record(minutes_ago=2) for _ in range(4)]
    store.write(runs)
    found = store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)
    assert [r.id for r in found] == sorted((r.id for r in runs), reverse=True)


def test_task_runs_leave_out_other_tasks_and_other_tenants(store):
    mine = record()
    store.write([mine, record(task=OTHER_TASK), record(tenant=OTHER_TENANT)])
    found = store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)
    assert [r.id for r in found] == [mine.id]
    assert store.task_runs(tenant_id=OTHER_TENANT, task_id=TASK, before=None, limit=10) != [mine]


def test_runs_across_a_month_boundary_read_in_order(store):
    runs = [record(minutes_ago=m) for m in (0, 60 * 24 * 20, 60 * 24 * 25)]
    store.write(runs)
    found = store.task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)
    assert [r.id for r in found] == [r.id for r in runs]
