"""The Cassandra history store on the real node: what only a real node can show.

The TTL on every row, no tombstones from empty columns, month buckets walked newest first
across a month boundary, pages that continue across buckets, the tenant in every partition
key, and a node that stops: reads fail loudly, then work again once it is back.
"""

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from history.cassandra_schema import TTL_SECONDS, bucket_of
from history.cassandra_store import CassandraHistoryStore
from history.records import HistoryRecord, HistoryUnavailable, RunCursor
from scheduler_site.ids import new_id
from tests.processes import wait_until
from tests.tcp_proxy import TcpProxy

TABLES = ("job_history", "job_by_id")
DEC_1 = datetime(2026, 12, 1, 0, 0, 30, tzinfo=UTC)


def finished(tenant: uuid.UUID, task: uuid.UUID, scheduled_at: datetime, **fields) -> HistoryRecord:
    values = dict(
        id=new_id(),
        tenant_id=tenant,
        task_id=task,
        scheduled_at=scheduled_at,
        status="succeeded",
        attempt=1,
        max_attempts=3,
        priority=5,
    )
    values.update(fields)
    return HistoryRecord(**values)


def full_record(tenant: uuid.UUID, task: uuid.UUID) -> HistoryRecord:
    now = datetime.now(UTC).replace(microsecond=0)
    return finished(
        tenant,
        task,
        now,
        next_attempt_at=now,
        started_at=now,
        finished_at=now,
        http_status=500,
        error="HTTP 500",
        response_body="nope",
        duration_ms=7,
    )


def rows_where(store, table: str, select: str, record: HistoryRecord, trace: bool = False):
    """One row of `table` for `record`, read by its full partition key."""
    if table == "job_history":
        where = "tenant_id = %s AND task_id = %s AND bucket = %s AND scheduled_at = %s"
        params = (record.tenant_id, record.task_id, bucket_of(record.scheduled_at))
        params += (record.scheduled_at,)
    else:
        where, params = "tenant_id = %s AND job_id = %s", (record.tenant_id, record.id)
    cql = f"SELECT {select} FROM {store.keyspace}.{table} WHERE {where}"
    return store.session.execute(cql, params, trace=trace)


def tombstones_read(result) -> int:
    trace = result.get_query_trace(max_wait_sec=10)
    counts = [
        int(match.group(1))
        for event in trace.events
        if (match := re.search(r"(\d+) tombstone cells", event.description))
    ]
    assert counts, "the trace of the read reported no cell counts"
    return sum(counts)


@pytest.fixture
def clocked_store(cassandra_store):
    """The session's keyspace read through a store whose clock says 1 December 2026."""
    return CassandraHistoryStore(
        cassandra_store.session, cassandra_store.keyspace, retention_days=60, clock=lambda: DEC_1
    )


@pytest.mark.parametrize("table", TABLES)
def test_every_column_of_a_row_expires_after_30_days(cassandra_store, table):
    record = full_record(uuid.uuid4(), uuid.uuid4())
    cassandra_store.write([record])
    columns = ["status", "attempt", "http_status", "error", "response_body", "finished_at"]
    row = rows_where(cassandra_store, table, ", ".join(f"TTL({c})" for c in columns), record).one()
    assert all(TTL_SECONDS - 120 < ttl <= TTL_SECONDS for ttl in row), row


@pytest.mark.parametrize("table", TABLES)
def test_empty_columns_are_left_unset_so_no_tombstone_is_written(cassandra_store, table):
    record = finished(uuid.uuid4(), uuid.uuid4(), datetime.now(UTC).replace(microsecond=0))
    cassandra_store.write([record])
    result = rows_where(cassandra_store, table, "*", record, trace=True)
    row = result.one()
    assert (row.error, row.http_status, row.response_body, row.started_at) == (None,) * 4
    assert tombstones_read(result) == 0


def test_a_null_written_on_purpose_shows_as_a_tombstone(cassandra_store):
    """The check above can fail: an explicit null is seen by the same trace."""
    record = finished(uuid.uuid4(), uuid.uuid4(), datetime.now(UTC).replace(microsecond=0))
    cassandra_store.write([record])
    cassandra_store.session.execute(
        f"UPDATE {cassandra_store.keyspace}.job_by_id SET error = null "
        "WHERE tenant_id = %s AND job_id = %s",
        (record.tenant_id, record.id),
    )
    result = rows_where(cassandra_store, "job_by_id", "*", record, trace=True)
    assert tombstones_read(result) == 1


def test_month_buckets_are_walked_newest_first_across_a_month_boundary(clocked_store):
    tenant, task = uuid.uuid4(), uuid.uuid4()
    moments = [
        DEC_1 - timedelta(seconds=20),  # December
        DEC_1 - timedelta(seconds=40),  # the last second of November
        datetime(2026, 11, 15, tzinfo=UTC),
        datetime(2026, 10, 31, 23, 59, 59, tzinfo=UTC),
    ]
    records = [finished(tenant, task, moment) for moment in reversed(moments)]
    clocked_store.write(records)
    runs = clocked_store.task_runs(tenant_id=tenant, task_id=task, before=None, limit=10)
    assert [run.scheduled_at for run in runs] == moments
    assert sorted({bucket_of(m) for m in moments}) == [202610, 202611, 202612]


def test_pages_continue_across_buckets(clocked_store):
    tenant, task = uuid.uuid4(), uuid.uuid4()
    moments = [DEC_1 - timedelta(days=days) for days in (0, 0.5, 1, 20, 31, 32)]
    clocked_store.write([finished(tenant, task, moment) for moment in moments])
    seen, cursor = [], None
    for _ in range(len(moments)):
        page = clocked_store.task_runs(tenant_id=tenant, task_id=task, before=cursor, limit=2)
        if not page:
            break
        seen += [run.scheduled_at for run in page]
        cursor = RunCursor(page[-1].scheduled_at, page[-1].id)
    assert seen == moments


@pytest.mark.parametrize("table", TABLES)
def test_the_tenant_is_part_of_every_partition_key(cassandra_store, table):
    columns = cassandra_store.session.execute(
        "SELECT column_name, kind FROM system_schema.columns "
        "WHERE keyspace_name = %s AND table_name = %s",
        (cassandra_store.keyspace, table),
    )
    partition_key = {row.column_name for row in columns if row.kind == "partition_key"}
    assert "tenant_id" in partition_key


def test_another_tenant_finds_neither_the_job_nor_the_runs(cassandra_store):
    tenant, intruder, task = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    record = full_record(tenant, task)
    cassandra_store.write([record])
    assert cassandra_store.get(tenant_id=intruder, job_id=record.id) is None
    runs = cassandra_store.task_runs(tenant_id=intruder, task_id=task, before=None, limit=10)
    assert runs == []
    assert cassandra_store.get(tenant_id=tenant, job_id=record.id) == record


def test_a_store_that_cannot_reach_the_node_reports_it_unavailable(cassandra_node):
    proxy = TcpProxy(cassandra_node[0][0], cassandra_node[1])
    proxy.close()  # a port where nothing answers any more
    with pytest.raises(HistoryUnavailable):
        CassandraHistoryStore.connect(["127.0.0.1"], "unused", port=proxy.port)


def test_reads_fail_while_the_node_is_gone_and_work_once_it_is_back(
    cassandra_node, cassandra_store
):
    record = full_record(uuid.uuid4(), uuid.uuid4())
    cassandra_store.write([record])
    proxy = TcpProxy(cassandra_node[0][0], cassandra_node[1])
    store = CassandraHistoryStore.connect(["127.0.0.1"], cassandra_store.keyspace, port=proxy.port)
    try:
        assert store.get(tenant_id=record.tenant_id, job_id=record.id) == record
        proxy.cut()
        with pytest.raises(HistoryUnavailable):
            store.get(tenant_id=record.tenant_id, job_id=record.id)
        proxy.restore()
        wait_until(
            lambda: _readable(store, record),
            timeout=20,
            interval=0.5,
            message="the store did not reconnect after the node came back",
        )
    finally:
        store.close()
        proxy.close()


def _readable(store: CassandraHistoryStore, record: HistoryRecord) -> bool:
    try:
        return store.get(tenant_id=record.tenant_id, job_id=record.id) == record
    except HistoryUnavailable:
        return False
