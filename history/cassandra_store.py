"""HistoryStore on Cassandra (scylla-driver): one row per finished job in two tables.

`job_history` serves a task's runs, newest first, one partition per (tenant, task, UTC month);
`job_by_id` serves a read by id in one query. Both rows are written for every record.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from cassandra import DriverException
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile, NoHostAvailable
from cassandra.concurrent import execute_concurrent
from cassandra.connection import ConnectionException
from cassandra.policies import (
    DCAwareRoundRobinPolicy,
    ExponentialReconnectionPolicy,
    TokenAwarePolicy,
)
from cassandra.protocol import ErrorMessage
from cassandra.query import UNSET_VALUE

from history.cassandra_consistency import Consistency
from history.cassandra_schema import (
    COLUMNS,
    bucket_of,
    checked_keyspace,
    previous_bucket,
    schema_statements,
)
from history.cassandra_skips import CassandraSkips
from history.records import (
    HistoryRecord,
    HistoryUnavailable,
    RunCursor,
    SkipCursor,
    SkipRecord,
    attempts_from_json,
    attempts_to_json,
)

# Server errors reach the caller as ErrorMessage subclasses, which are not DriverExceptions.
DRIVER_ERRORS: tuple[type[Exception], ...] = (
    DriverException,
    NoHostAvailable,
    ConnectionException,
    ErrorMessage,
)

_NAMES = [name for name, _ in COLUMNS]
_TIMESTAMPS = frozenset(name for name, cql_type in COLUMNS if cql_type == "timestamp")


def run_concurrently(
    session: Any, statements_and_params: Iterable[tuple[Any, Sequence[Any]]], concurrency: int
) -> None:
    """Execute every (statement, params) with at most `concurrency` requests in flight."""
    results = execute_concurrent(
        session,
        statements_and_params,
        concurrency=concurrency,
        raise_on_first_error=True,
        results_generator=True,  # streams results instead of holding every one in memory
    )
    for _ in results:
        pass


def first_rows(
    session: Any, statements_and_params: Sequence[tuple[Any, Sequence[Any]]], concurrency: int
) -> Iterator[Any]:
    """The first row of each read that found one, reads run `concurrency` at a time."""
    results = execute_concurrent(
        session, statements_and_params, concurrency=concurrency, raise_on_first_error=True
    )
    for _, rows in results:
        row = next(iter(rows), None)
        if row is not None:
            yield row


@contextmanager
def _driver_errors(action: str) -> Iterator[None]:
    try:
        yield
    except DRIVER_ERRORS as exc:
        raise HistoryUnavailable(f"Cassandra {action} failed: {type(exc).__name__}") from exc


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    """The driver returns naive UTC datetimes; the history speaks aware UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _bind(record: HistoryRecord) -> tuple[Any, ...]:
    """Insert values in COLUMNS order; None is UNSET so that no tombstone is written."""
    derived = {
        "bucket": bucket_of(record.scheduled_at),
        "job_id": record.id,
        "attempts": attempts_to_json(record.attempts),
    }
    values = (derived[n] if n in derived else getattr(record, n) for n in _NAMES)
    return tuple(UNSET_VALUE if value is None else value for value in values)


def _record(row: Any) -> HistoryRecord:
    values = {}
    for name in HistoryRecord.field_names():
        value = getattr(row, "job_id" if name == "id" else name)
        values[name] = _aware(value) if name in _TIMESTAMPS else value
    return HistoryRecord(**values, attempts=attempts_from_json(row.attempts))


@dataclass(frozen=True)
class _Statements:
    insert_history: Any
    insert_by_id: Any
    select_by_id: Any
    select_runs: Any
    select_runs_before: Any


def _statement_texts(keyspace: str) -> dict[str, str]:
    columns = ", ".join(_NAMES)
    placeholders = ", ".join("?" for _ in _NAMES)
    runs = f"SELECT {columns} FROM {keyspace}.job_history WHERE tenant_id = ? AND task_id = ? "
    runs += "AND bucket = ?"
    return {
        "insert_history": f"INSERT INTO {keyspace}.job_history ({columns}) VALUES ({placeholders})",
        "insert_by_id": f"INSERT INTO {keyspace}.job_by_id ({columns}) VALUES ({placeholders})",
        "select_by_id": (
            f"SELECT {columns} FROM {keyspace}.job_by_id WHERE tenant_id = ? AND job_id = ?"
        ),
        "select_runs": f"{runs} LIMIT ?",
        "select_runs_before": f"{runs} AND (scheduled_at, job_id) < (?, ?) LIMIT ?",
    }


class CassandraHistoryStore:
    def __init__(
        self,
        session: Any,
        keyspace: str,
        *,
        concurrency: int = 64,
        retention_days: int = 30,
        read_timeout: float = 10.0,
        consistency: Consistency | None = None,
        clock: Callable[[], datetime] = _utcnow,
    ) -> None:
        self._session = session
        self._keyspace = checked_keyspace(keyspace)
        self._concurrency = concurrency
        self._retention_days = retention_days
        # Reads serve API requests: a node that stops answering fails them in this time
        # rather than the driver's 10 s, which is for the archiver's writes.
        self._read_timeout = read_timeout
        self._clock = clock
        self._consistency = consistency or Consistency()
        self._statements: _Statements | None = None
        self._prepare_lock = threading.Lock()
        self._skips = CassandraSkips(session, self._keyspace, self._consistency)

    @classmethod
    def connect(
        cls, hosts: list[str], keyspace: str, *, port: int = 9042, **kw: Any
    ) -> CassandraHistoryStore:
        profile = ExecutionProfile(
            load_balancing_policy=TokenAwarePolicy(DCAwareRoundRobinPolicy()), request_timeout=10
        )
        cluster = Cluster(
            hosts,
            port=port,
            execution_profiles={EXEC_PROFILE_DEFAULT: profile},
            # The driver's default waits up to 10 minutes between tries to reach a node that
            # went down; the archiver should resume within seconds of the node's return.
            reconnection_policy=ExponentialReconnectionPolicy(base_delay=0.5, max_delay=5.0),
            connect_timeout=5,
        )
        try:
            with _driver_errors("connect"):
                session = cluster.connect()
        except HistoryUnavailable:
            cluster.shutdown()
            raise
        return cls(session, keyspace, **kw)

    @property
    def session(self) -> Any:
        """The driver session, for operators' checks on the node (TTLs, tracing)."""
        return self._session

    @property
    def keyspace(self) -> str:
        return self._keyspace

    def close(self) -> None:
        self._session.cluster.shutdown()

    def create_schema(self, replication: dict | None = None) -> None:
        with _driver_errors("schema creation"):
            for statement in schema_statements(self._keyspace, replication):
                self._session.execute(statement)

    def _prepared(self) -> _Statements:
        with self._prepare_lock:
            if self._statements is None:
                texts = _statement_texts(self._keyspace)
                with _driver_errors("prepare"):
                    prepare = self._consistency.prepare
                    prepared = {key: prepare(self._session, cql) for key, cql in texts.items()}
                self._statements = _Statements(**prepared)
            return self._statements

    def write(self, records: list[HistoryRecord]) -> None:
        if not records:
            return
        statements = self._prepared()
        pairs = (
            (statement, _bind(record))
            for record in records
            for statement in (statements.insert_history, statements.insert_by_id)
        )
        with _driver_errors("write"):
            run_concurrently(self._session, pairs, self._concurrency)

    def get(self, *, tenant_id: uuid.UUID, job_id: uuid.UUID) -> HistoryRecord | None:
        statement = self._prepared().select_by_id
        with _driver_errors("read"):
            rows = self._session.execute(statement, (tenant_id, job_id), timeout=self._read_timeout)
            row = next(iter(rows), None)
        return None if row is None else _record(row)

    def find(self, *, job_id: uuid.UUID, tenant_ids: list[uuid.UUID]) -> HistoryRecord | None:
        # job_by_id is partitioned by (tenant, job): without the tenant, one single-partition
        # read per tenant, run concurrently, beats a scan of the table (ALLOW FILTERING).
        statement = self._prepared().select_by_id
        pairs = [(statement, (tenant_id, job_id)) for tenant_id in tenant_ids]
        with _driver_errors("read"):
            for row in first_rows(self._session, pairs, self._concurrency):
                return _record(row)
        return None

    def newest_runs(
        self, *, tasks: list[tuple[uuid.UUID, uuid.UUID]]
    ) -> dict[uuid.UUID, HistoryRecord]:
        statement = self._prepared().select_runs
        found: dict[uuid.UUID, HistoryRecord] = {}
        waiting = list(tasks)
        for bucket in self._buckets(None):  # month by month, for the tasks not found yet
            if not waiting:
                break
            pairs = [(statement, (tenant, task, bucket, 1)) for tenant, task in waiting]
            with _driver_errors("read"):
                for row in first_rows(self._session, pairs, self._concurrency):
                    found[row.task_id] = _record(row)
            waiting = [(tenant, task) for tenant, task in waiting if task not in found]
        return found

    def task_runs(
        self,
        *,
        tenant_id: uuid.UUID,
        task_id: uuid.UUID,
        before: RunCursor | None,
        limit: int,
    ) -> list[HistoryRecord]:
        runs: list[HistoryRecord] = []
        cursor_bucket = None if before is None else bucket_of(before.scheduled_at)
        for bucket in self._buckets(before):
            if len(runs) >= limit:
                break
            cursor = before if bucket == cursor_bucket else None
            runs += self._bucket_runs(tenant_id, task_id, bucket, cursor, limit - len(runs))
        return runs

    def _buckets(self, before: RunCursor | None) -> Iterator[int]:
        """Month buckets newest first, from the cursor's (or now's) to the retention window's."""
        now = self._clock()
        oldest = bucket_of(now - timedelta(days=self._retention_days))
        bucket = bucket_of(before.scheduled_at if before is not None else now)
        # The cap also bounds a walk that starts from a cursor far in the future.
        for _ in range(self._retention_days // 28 + 2):
            if bucket < oldest:
                return
            yield bucket
            bucket = previous_bucket(bucket)

    def _bucket_runs(
        self,
        tenant_id: uuid.UUID,
        task_id: uuid.UUID,
        bucket: int,
        cursor: RunCursor | None,
        limit: int,
    ) -> list[HistoryRecord]:
        statements = self._prepared()
        if cursor is None:
            statement, params = statements.select_runs, (tenant_id, task_id, bucket, limit)
        else:
            statement = statements.select_runs_before
            params = (tenant_id, task_id, bucket, *cursor.key(), limit)
        with _driver_errors("read"):
            rows = self._session.execute(statement, params, timeout=self._read_timeout)
            return [_record(row) for row in rows]

    def write_skips(self, records: list[SkipRecord]) -> None:
        if not records:
            return
        with _driver_errors("write"):
            pairs = self._skips.write_pairs(records)
            run_concurrently(self._session, pairs, self._concurrency)

    def task_skips(
        self,
        *,
        tenant_id: uuid.UUID,
        task_id: uuid.UUID,
        before: SkipCursor | None,
        limit: int,
    ) -> list[SkipRecord]:
        with _driver_errors("read"):
            return self._skips.read(tenant_id, task_id, before, limit, self._read_timeout)
