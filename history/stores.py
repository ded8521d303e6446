"""The history store this installation uses, chosen by HISTORY_BACKEND."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from history.records import HistoryStore

HISTORY_READ_SLACK_DAYS = 7


def history_store() -> HistoryStore:
    return _store(
        settings.HISTORY_BACKEND,
        tuple(settings.CASSANDRA_HOSTS),
        settings.CASSANDRA_PORT,
        settings.CASSANDRA_KEYSPACE,
    )


def close_history_stores() -> None:
    """Close the connections of every store opened so far (a process's clean stop)."""
    for store in _opened:
        close = getattr(store, "close", None)
        if close is not None:
            close()
    _opened.clear()
    _store.cache_clear()


_opened: list[HistoryStore] = []


@lru_cache(maxsize=4)
def _store(backend: str, hosts: tuple[str, ...], port: int, keyspace: str) -> HistoryStore:
    if backend == "sql":
        from history.sql_store import SqlHistoryStore

        return SqlHistoryStore()
    if backend == "cassandra":
        if not hosts:
            raise RuntimeError("HISTORY_BACKEND=cassandra needs CASSANDRA_HOSTS")
        from history.cassandra_store import CassandraHistoryStore

        # Runs are read back by scheduled_at: a dead job can be archived two weeks after it
        # ran (and retries push that further), then lives 30 days in the table.
        window = (
            settings.HISTORY_RETENTION_DAYS
            + settings.ARCHIVE_DEAD_AFTER_SECONDS // 86400
            + HISTORY_READ_SLACK_DAYS
        )
        store = CassandraHistoryStore.connect(
            list(hosts), keyspace, port=port, retention_days=window
        )
        _opened.append(store)
        return store
    raise RuntimeError(f"unknown HISTORY_BACKEND {backend!r}: use sql or cassandra")
