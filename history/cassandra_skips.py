"""The skipped-run ledger in Cassandra: one partition per (tenant, task), entries newest
first, expiring after the runs' TTL (history/cassandra_schema.py gives it)."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC
from typing import Any

from cassandra.query import UNSET_VALUE

from history.cassandra_consistency import Consistency
from history.records import SkipCursor, SkipRecord

# The row's columns in bind order; `count` is spelled run_count (a CQL function's name).
COLUMNS: tuple[tuple[str, str], ...] = (
    ("tenant_id", "uuid"),
    ("task_id", "uuid"),
    ("last_scheduled_at", "timestamp"),
    ("id", "uuid"),
    ("reason", "text"),
    ("first_scheduled_at", "timestamp"),
    ("run_count", "bigint"),
    ("recorded_at", "timestamp"),
)
_NAMES = [name for name, _ in COLUMNS]


def create_table(keyspace: str, ttl_seconds: int) -> str:
    columns = ",\n".join(f"    {name} {cql_type}" for name, cql_type in COLUMNS)
    return (
        f"CREATE TABLE IF NOT EXISTS {keyspace}.skipped_runs (\n{columns},\n"
        "    PRIMARY KEY ((tenant_id, task_id), last_scheduled_at, id)\n"
        ") WITH CLUSTERING ORDER BY (last_scheduled_at DESC, id DESC)\n"
        f"    AND default_time_to_live = {ttl_seconds}"
    )


def _texts(keyspace: str) -> dict[str, str]:
    columns = ", ".join(_NAMES)
    select = f"SELECT {columns} FROM {keyspace}.skipped_runs WHERE tenant_id = ? AND task_id = ?"
    placeholders = ", ".join("?" for _ in _NAMES)
    return {
        "insert": f"INSERT INTO {keyspace}.skipped_runs ({columns}) VALUES ({placeholders})",
        "first": f"{select} LIMIT ?",
        "before": f"{select} AND (last_scheduled_at, id) < (?, ?) LIMIT ?",
    }


def _bind(record: SkipRecord) -> tuple:
    values = {
        **{n: getattr(record, n) for n in SkipRecord.field_names()},
        "run_count": record.count,
    }
    return tuple(UNSET_VALUE if values[n] is None else values[n] for n in _NAMES)


def _record(row: Any) -> SkipRecord:
    def aware(value):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value

    return SkipRecord(
        id=row.id,
        tenant_id=row.tenant_id,
        task_id=row.task_id,
        reason=row.reason,
        first_scheduled_at=aware(row.first_scheduled_at),
        last_scheduled_at=aware(row.last_scheduled_at),
        count=row.run_count,
        recorded_at=aware(row.recorded_at),
    )


class CassandraSkips:
    """Prepared once, on first use (the store's session may come up after the process)."""

    def __init__(self, session: Any, keyspace: str, consistency: Consistency) -> None:
        self._session = session
        self._keyspace = keyspace
        self._consistency = consistency
        self._prepared: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def statements(self) -> dict[str, Any]:
        with self._lock:
            if self._prepared is None:
                texts = _texts(self._keyspace)
                prepare = self._consistency.prepare
                self._prepared = {key: prepare(self._session, cql) for key, cql in texts.items()}
            return self._prepared

    def write_pairs(self, records: list[SkipRecord]) -> list[tuple[Any, tuple]]:
        insert = self.statements()["insert"]
        return [(insert, _bind(record)) for record in records]

    def read(
        self, tenant_id: uuid.UUID, task_id: uuid.UUID, before: SkipCursor | None, limit: int,
        timeout: float,
    ) -> list[SkipRecord]:  # fmt: skip
        statements = self.statements()
        if before is None:
            statement, params = statements["first"], (tenant_id, task_id, limit)
        else:
            statement, params = statements["before"], (tenant_id, task_id, *before.key(), limit)
        return [_record(row) for row in self._session.execute(statement, params, timeout=timeout)]
