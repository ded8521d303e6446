"""CQL schema of the job history in Cassandra, and the month buckets that partition it.

A task's runs are split into one partition per UTC month (`bucket`) so that no partition
grows without bound; rows expire on their own after 30 days (the table's default TTL).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from history import cassandra_skips

TTL_SECONDS = 30 * 24 * 3600

# Column order is also the bind order of the store's inserts.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("tenant_id", "uuid"),
    ("task_id", "uuid"),
    ("bucket", "int"),
    ("scheduled_at", "timestamp"),
    ("job_id", "uuid"),
    ("status", "text"),
    ("attempt", "int"),
    ("max_attempts", "int"),
    ("priority", "int"),
    ("next_attempt_at", "timestamp"),
    ("started_at", "timestamp"),
    ("finished_at", "timestamp"),
    ("http_status", "int"),
    ("error", "text"),
    ("response_body", "text"),
    ("duration_ms", "int"),
    ("claimed_at", "timestamp"),
    ("attempts", "text"),  # every call of the job, as JSON
)
# Columns added after the first release: a keyspace made before them gets them on the next
# `create_history_schema`.
ADDED_COLUMNS: tuple[str, ...] = ("claimed_at", "attempts")

DEFAULT_REPLICATION: dict[str, str | int] = {"class": "SimpleStrategy", "replication_factor": 1}

_IDENTIFIER = re.compile(r"[A-Za-z0-9_]{1,48}")


def checked_keyspace(keyspace: str) -> str:
    """The keyspace name, refused unless it is a plain CQL identifier (it is spliced into CQL)."""
    if not _IDENTIFIER.fullmatch(keyspace):
        raise ValueError(f"invalid Cassandra keyspace name: {keyspace!r}")
    return keyspace


def bucket_of(moment: datetime) -> int:
    """The UTC month of `moment` as YYYYMM; a naive datetime is taken to be UTC."""
    utc = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return utc.year * 100 + utc.month


def previous_bucket(bucket: int) -> int:
    year, month = divmod(bucket, 100)
    return (year - 1) * 100 + 12 if month == 1 else bucket - 1


def _cql_map(values: dict[str, str | int]) -> str:
    def quote(value: str | int) -> str:
        return "'" + str(value).replace("'", "''") + "'"

    return "{" + ", ".join(f"{quote(k)}: {quote(v)}" for k, v in values.items()) + "}"


def _column_lines() -> str:
    return ",\n".join(f"    {name} {cql_type}" for name, cql_type in COLUMNS)


def _create_table(keyspace: str, table: str, primary_key: str, options: str) -> str:
    return (
        f"CREATE TABLE IF NOT EXISTS {keyspace}.{table} (\n"
        f"{_column_lines()},\n"
        f"    PRIMARY KEY {primary_key}\n"
        f") WITH {options}default_time_to_live = {TTL_SECONDS}"
    )


def schema_statements(keyspace: str, replication: dict | None = None) -> list[str]:
    keyspace = checked_keyspace(keyspace)
    create_keyspace = (
        f"CREATE KEYSPACE IF NOT EXISTS {keyspace} "
        f"WITH replication = {_cql_map(replication or DEFAULT_REPLICATION)}"
    )
    history = _create_table(
        keyspace,
        "job_history",
        "((tenant_id, task_id, bucket), scheduled_at, job_id)",
        "CLUSTERING ORDER BY (scheduled_at DESC, job_id DESC)\n    AND ",
    )
    by_id = _create_table(keyspace, "job_by_id", "((tenant_id, job_id))", "")
    types = dict(COLUMNS)
    added = [
        f"ALTER TABLE {keyspace}.{table} ADD IF NOT EXISTS {name} {types[name]}"
        for table in ("job_history", "job_by_id")
        for name in ADDED_COLUMNS
    ]
    skipped = cassandra_skips.create_table(keyspace, TTL_SECONDS)
    return [create_keyspace, history, by_id, *added, skipped]
