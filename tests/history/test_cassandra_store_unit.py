"""CassandraHistoryStore against a fake session: no Cassandra server, no Django database."""

from __future__ import annotations

import uuid
from collections import namedtuple
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from cassandra import OperationTimedOut, ReadTimeout
from cassandra.cluster import NoHostAvailable
from cassandra.protocol import ServerError
from cassandra.query import UNSET_VALUE, BatchStatement

from history import cassandra_store
from history.cassandra_schema import COLUMNS, bucket_of, previous_bucket, schema_statements
from history.cassandra_store import CassandraHistoryStore
from history.records import HistoryRecord, HistoryUnavailable, RunCursor

TENANT = uuid.UUID("00000000-0000-0000-0000-00000000000a")
TASK = uuid.UUID("00000000-0000-0000-0000-00000000000b")
NOW = datetime(2026, 10, 15, 12, 0, tzinfo=UTC)

Row = namedtuple("Row", [name for name, _ in COLUMNS])


class FakePrepared:
    def __init__(self, query: str) -> None:
        self.query_string = query


class DoneFuture:
    """Enough of ResponseFuture for the driver's execute_concurrent: completes on add."""

    _col_names = None
    _col_types = None
    has_more_pages = False

    def __init__(self, error: Exception | None) -> None:
        self._error = error

    def add_callbacks(self, callback, errback, callback_args=(), errback_args=(), **_: Any):
        if self._error is None:
            callback([], *callback_args)
        else:
            errback(self._error, *errback_args)

    def clear_callbacks(self) -> None:
        pass


Responder = Callable[[str, tuple], list]


class FakeSession:
    def __init__(self, respond: Responder | None = None, error: Exception | None = None) -> None:
        self.prepared: list[str] = []
        self.executed: list[tuple[Any, tuple]] = []
        self._respond = respond or (lambda query, params: [])
        self._error = error

    def prepare(self, query: str) -> FakePrepared:
        self.prepared.append(query)
        return FakePrepared(query)

    def execute(self, statement: Any, params: tuple = ()) -> list:
        self.executed.append((statement, params))
        if self._error is not None:
            raise self._error
        query = getattr(statement, "query_string", statement)
        return self._respond(query, params)

    def execute_async(self, statement: Any, params: tuple = (), **_: Any) -> DoneFuture:
        self.executed.append((statement, params))
        return DoneFuture(self._error)

    def queries(self) -> list[str]:
        return [getattr(statement, "query_string", statement) for statement, _ in self.executed]


def make_store(session: FakeSession, **kw: Any) -> CassandraHistoryStore:
    return CassandraHistoryStore(session, "history", clock=lambda: NOW, **kw)


def make_record(**overrides: Any) -> HistoryRecord:
    values: dict[str, Any] = {
        "id": uuid.uuid4(),
        "tenant_id": TENANT,
        "task_id": TASK,
        "scheduled_at": NOW - timedelta(minutes=5),
        "status": "succeeded",
        "attempt": 1,
        "max_attempts": 3,
        "priority": 0,
    }
    return HistoryRecord(**{**values, **overrides})


def make_row(scheduled_at: datetime, **overrides: Any) -> Row:
    """A row as the driver returns it: timestamps naive UTC."""
    values = {name: None for name, _ in COLUMNS}
    values.update(
        tenant_id=TENANT,
        task_id=TASK,
        bucket=bucket_of(scheduled_at),
        scheduled_at=scheduled_at,
        job_id=uuid.uuid4(),
        status="succeeded",
        attempt=1,
        max_attempts=3,
        priority=0,
    )
    values.update(overrides)
    return Row(**values)


def runs_by_bucket(rows: dict[int, list[Row]]) -> Responder:
    def respond(query: str, params: tuple) -> list:
        if "FROM history.job_history" not in query:
            return []
        return rows.get(params[2], [])[: params[-1]]

    return respond


def selected_buckets(session: FakeSession) -> list[int]:
    return [
        params[2]
        for query, (_, params) in zip(session.queries(), session.executed, strict=True)
        if "FROM history.job_history" in query
    ]


# schema


def test_schema_declares_partition_key_clustering_order_and_ttl() -> None:
    history = schema_statements("history")[1]
    assert "CREATE TABLE IF NOT EXISTS history.job_history" in history
    assert "PRIMARY KEY ((tenant_id, task_id, bucket), scheduled_at, job_id)" in history
    assert "CLUSTERING ORDER BY (scheduled_at DESC, job_id DESC)" in history
    assert "default_time_to_live = 2592000" in history


def test_schema_job_by_id_is_keyed_by_tenant_and_job_with_same_ttl() -> None:
    by_id = schema_statements("history")[2]
    assert "CREATE TABLE IF NOT EXISTS history.job_by_id" in by_id
    assert "PRIMARY KEY ((tenant_id, job_id))" in by_id
    assert "default_time_to_live = 2592000" in by_id
    assert all(f"{name} {cql_type}" in by_id for name, cql_type in COLUMNS)


def test_schema_keyspace_defaults_to_simple_strategy_rf_1() -> None:
    keyspace = schema_statements("history")[0]
    assert keyspace.startswith("CREATE KEYSPACE IF NOT EXISTS history")
    assert "'class': 'SimpleStrategy', 'replication_factor': '1'" in keyspace


def test_schema_keyspace_uses_given_replication() -> None:
    replication = {"class": "NetworkTopologyStrategy", "dc1": 3}
    keyspace = schema_statements("history", replication)[0]
    assert "{'class': 'NetworkTopologyStrategy', 'dc1': '3'}" in keyspace


def test_schema_refuses_keyspace_that_is_not_an_identifier() -> None:
    with pytest.raises(ValueError):
        schema_statements("history; DROP KEYSPACE x")


# buckets


def test_bucket_of_is_the_utc_month_as_yyyymm() -> None:
    assert bucket_of(datetime(2026, 10, 3, tzinfo=UTC)) == 202610


def test_bucket_of_converts_to_utc_first() -> None:
    evening_in_sao_paulo = datetime(2026, 10, 31, 22, 30, tzinfo=timezone(timedelta(hours=-3)))
    assert bucket_of(evening_in_sao_paulo) == 202611


def test_previous_bucket_within_a_year() -> None:
    assert previous_bucket(202610) == 202609


def test_previous_bucket_of_january_is_december_of_the_year_before() -> None:
    assert previous_bucket(202601) == 202512


def test_previous_bucket_of_december_is_november() -> None:
    assert previous_bucket(202512) == 202511


# write


def test_write_issues_two_inserts_per_record() -> None:
    session = FakeSession()
    make_store(session).write([make_record(), make_record()])
    queries = session.queries()
    assert len(queries) == 4
    assert sum(q.startswith("INSERT INTO history.job_history ") for q in queries) == 2
    assert sum(q.startswith("INSERT INTO history.job_by_id ") for q in queries) == 2


def test_write_binds_unset_value_instead_of_none() -> None:
    session = FakeSession()
    make_store(session).write([make_record(error=None, http_status=None)])
    for _, params in session.executed:
        assert None not in params
        assert params.count(UNSET_VALUE) == 7  # the seven optional fields left empty


def test_write_binds_bucket_job_id_and_aware_datetimes() -> None:
    record = make_record(finished_at=NOW, http_status=200)
    session = FakeSession()
    make_store(session).write([record])
    names = [name for name, _ in COLUMNS]
    params = dict(zip(names, session.executed[0][1], strict=True))
    assert params["bucket"] == 202610
    assert params["job_id"] == record.id
    assert params["finished_at"] == NOW and params["finished_at"].tzinfo is UTC
    assert params["http_status"] == 200


def test_write_does_not_use_batch_statement() -> None:
    session = FakeSession()
    make_store(session).write([make_record(), make_record()])
    assert not any(isinstance(statement, BatchStatement) for statement, _ in session.executed)
    assert not any("BATCH" in query.upper() for query in session.prepared)


def test_write_runs_concurrently_with_64_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def fake_execute_concurrent(session: Any, statements_and_params: Any, **kw: Any) -> list:
        calls.append({"pairs": list(statements_and_params), **kw})
        return []

    monkeypatch.setattr(cassandra_store, "execute_concurrent", fake_execute_concurrent)
    make_store(FakeSession()).write([make_record() for _ in range(3)])
    assert len(calls) == 1
    assert calls[0]["concurrency"] == 64
    assert len(calls[0]["pairs"]) == 6


def test_write_of_no_records_executes_nothing() -> None:
    session = FakeSession()
    make_store(session).write([])
    assert session.executed == []


def test_statements_are_prepared_once() -> None:
    session = FakeSession()
    store = make_store(session)
    store.write([make_record()])
    store.write([make_record()])
    store.get(tenant_id=TENANT, job_id=uuid.uuid4())
    assert len(session.prepared) == len(set(session.prepared)) == 5


# get


def test_get_binds_tenant_and_job_id() -> None:
    session = FakeSession()
    job_id = uuid.uuid4()
    make_store(session).get(tenant_id=TENANT, job_id=job_id)
    [(statement, params)] = session.executed
    assert "FROM history.job_by_id WHERE tenant_id = ? AND job_id = ?" in statement.query_string
    assert params == (TENANT, job_id)


def test_get_returns_none_when_no_row() -> None:
    assert make_store(FakeSession()).get(tenant_id=TENANT, job_id=uuid.uuid4()) is None


def test_get_maps_the_row_to_a_record() -> None:
    row = make_row(datetime(2026, 10, 15, 11, 0), http_status=500, error="boom")
    session = FakeSession(respond=lambda query, params: [row])
    record = make_store(session).get(tenant_id=TENANT, job_id=row.job_id)
    assert record is not None
    assert (record.id, record.http_status, record.error) == (row.job_id, 500, "boom")


# task_runs


def test_task_runs_walks_buckets_newest_first_until_limit() -> None:
    october = [make_row(datetime(2026, 10, 10 - i)) for i in range(2)]
    september = [make_row(datetime(2026, 9, 28 - i)) for i in range(5)]
    session = FakeSession(respond=runs_by_bucket({202610: october, 202609: september}))
    runs = make_store(session, retention_days=90).task_runs(
        tenant_id=TENANT, task_id=TASK, before=None, limit=4
    )
    assert [r.id for r in runs] == [row.job_id for row in october + september[:2]]
    assert selected_buckets(session) == [202610, 202609]


def test_task_runs_asks_each_bucket_only_for_the_rows_still_missing() -> None:
    october = [make_row(datetime(2026, 10, 10 - i)) for i in range(3)]
    session = FakeSession(respond=runs_by_bucket({202610: october}))
    make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=10)
    assert [params[-1] for _, params in session.executed] == [10, 7]


def test_task_runs_binds_the_partition_key() -> None:
    session = FakeSession()
    make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=5)
    assert session.executed[0][1] == (TENANT, TASK, 202610, 5)


def test_task_runs_with_cursor_slices_only_the_cursor_bucket() -> None:
    cursor = RunCursor(scheduled_at=datetime(2026, 9, 20, tzinfo=UTC), job_id=uuid.uuid4())
    session = FakeSession()
    make_store(session, retention_days=90).task_runs(
        tenant_id=TENANT, task_id=TASK, before=cursor, limit=5
    )
    slices = ["(scheduled_at, job_id) < (?, ?)" in q for q in session.queries()]
    assert slices == [True, False, False]
    assert session.executed[0][1] == (TENANT, TASK, 202609, cursor.scheduled_at, cursor.job_id, 5)
    assert selected_buckets(session) == [202609, 202608, 202607]


def test_task_runs_stops_after_the_retention_window() -> None:
    session = FakeSession()
    runs = make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=5)
    assert runs == []
    assert selected_buckets(session) == [202610, 202609]  # NOW - 30 days is in September


def test_task_runs_never_walks_more_than_the_bucket_cap() -> None:
    future = RunCursor(scheduled_at=NOW + timedelta(days=120), job_id=uuid.uuid4())
    session = FakeSession()
    make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=future, limit=5)
    assert len(selected_buckets(session)) == 30 // 28 + 2


def test_task_runs_with_cursor_older_than_retention_reads_nothing() -> None:
    old = RunCursor(scheduled_at=NOW - timedelta(days=90), job_id=uuid.uuid4())
    session = FakeSession()
    runs = make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=old, limit=5)
    assert runs == [] and selected_buckets(session) == []


def test_naive_timestamps_from_rows_come_back_utc_aware() -> None:
    row = make_row(datetime(2026, 10, 10, 8, 30), finished_at=datetime(2026, 10, 10, 8, 31))
    session = FakeSession(respond=runs_by_bucket({202610: [row]}))
    [run] = make_store(session).task_runs(tenant_id=TENANT, task_id=TASK, before=None, limit=1)
    assert run.scheduled_at == datetime(2026, 10, 10, 8, 30, tzinfo=UTC)
    assert run.finished_at == datetime(2026, 10, 10, 8, 31, tzinfo=UTC)
    assert run.started_at is None


# errors

DRIVER_ERRORS = [
    OperationTimedOut("timed out"),
    NoHostAvailable("no host", {}),
    ReadTimeout("read timeout"),
    ServerError(0x0000, "server error", {}),
]

OPERATIONS: dict[str, Callable[[CassandraHistoryStore], Any]] = {
    "write": lambda store: store.write([make_record()]),
    "get": lambda store: store.get(tenant_id=TENANT, job_id=uuid.uuid4()),
    "task_runs": lambda store: store.task_runs(
        tenant_id=TENANT, task_id=TASK, before=None, limit=5
    ),
}


@pytest.mark.parametrize("error", DRIVER_ERRORS, ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("operation", list(OPERATIONS))
def test_driver_errors_become_history_unavailable(error: Exception, operation: str) -> None:
    store = make_store(FakeSession(error=error))
    with pytest.raises(HistoryUnavailable) as raised:
        OPERATIONS[operation](store)
    assert raised.value.__cause__ is error


def test_prepare_failure_becomes_history_unavailable() -> None:
    session = FakeSession()
    session.prepare = lambda query: (_ for _ in ()).throw(NoHostAvailable("down", {}))
    with pytest.raises(HistoryUnavailable):
        make_store(session).get(tenant_id=TENANT, job_id=uuid.uuid4())


# setup


def test_create_schema_executes_every_schema_statement() -> None:
    session = FakeSession()
    make_store(session).create_schema()
    assert session.queries() == schema_statements("history")


def test_connect_builds_cluster_from_hosts_and_connects(monkeypatch: pytest.MonkeyPatch) -> None:
    session = FakeSession()
    built: list[list[str]] = []

    class FakeCluster:
        def __init__(self, hosts: list[str]) -> None:
            built.append(hosts)

        def connect(self) -> FakeSession:
            return session

    monkeypatch.setattr(cassandra_store, "Cluster", FakeCluster)
    store = CassandraHistoryStore.connect(["10.0.0.1", "10.0.0.2"], "history", concurrency=8)
    store.create_schema()
    assert built == [["10.0.0.1", "10.0.0.2"]]
    assert session.queries() == schema_statements("history")
