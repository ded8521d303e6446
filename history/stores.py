"""The history store this installation uses, chosen by HISTORY_BACKEND.

`history_store()` is the store itself (the archiver's writes, readiness); `history_reader()`
is what the tenant API reads through: the same store behind a breaker (history/breaker.py).
"""

from __future__ import annotations

import threading

from django.conf import settings

from history.breaker import Breaker
from history.connect_backoff import ConnectBackoff
from history.guarded_reads import GuardedReads
from history.records import HistoryStore, HistoryUnavailable

HISTORY_READ_SLACK_DAYS = 7
StoreKey = tuple[str, tuple[str, ...], int, str]

_lock = threading.Lock()  # one connect at a time: the others wait, then share its outcome
_stores: dict[StoreKey, HistoryStore] = {}
_backoffs: dict[StoreKey, ConnectBackoff] = {}
_readers: dict[float, GuardedReads] = {}


def history_store() -> HistoryStore:
    key = (
        settings.HISTORY_BACKEND,
        tuple(settings.CASSANDRA_HOSTS),
        settings.CASSANDRA_PORT,
        settings.CASSANDRA_KEYSPACE,
    )
    store = _stores.get(key)
    if store is not None:
        return store
    with _lock:
        if key not in _stores:
            _stores[key] = _open_with_backoff(key)
        return _stores[key]


def history_reader() -> GuardedReads:
    open_seconds = float(settings.HISTORY_BREAKER_SECONDS)
    reader = _readers.get(open_seconds)  # without the lock: a connect may be holding it
    if reader is None:
        reader = _readers.setdefault(
            open_seconds, GuardedReads(history_store, Breaker(open_seconds))
        )
    return reader


def close_history_stores() -> None:
    """Close the connections of every store opened so far (a process's clean stop)."""
    with _lock:
        for store in _stores.values():
            close = getattr(store, "close", None)
            if close is not None:
                close()
        _stores.clear()
        _backoffs.clear()
        _readers.clear()


def _open_with_backoff(key: StoreKey) -> HistoryStore:
    backoff = _backoffs.setdefault(key, ConnectBackoff())
    backoff.check()
    try:
        store = _open(*key)
    except HistoryUnavailable as exc:
        backoff.failed(exc)
        raise
    backoff.succeeded()
    return store


def _open(backend: str, hosts: tuple[str, ...], port: int, keyspace: str) -> HistoryStore:
    if backend == "sql":
        from history.sql_store import SqlHistoryStore

        return SqlHistoryStore()
    if backend == "cassandra":
        if not hosts:
            raise RuntimeError("HISTORY_BACKEND=cassandra needs CASSANDRA_HOSTS")
        from history.cassandra_consistency import Consistency
        from history.cassandra_store import CassandraHistoryStore

        # Runs are read back by scheduled_at: a dead job can be archived two weeks after it
        # ran (and retries push that further), then lives 30 days in the table.
        window = (
            settings.HISTORY_RETENTION_DAYS
            + settings.ARCHIVE_DEAD_AFTER_SECONDS // 86400
            + HISTORY_READ_SLACK_DAYS
        )
        return CassandraHistoryStore.connect(
            list(hosts),
            keyspace,
            port=port,
            retention_days=window,
            read_timeout=settings.HISTORY_READ_TIMEOUT_SECONDS,
            consistency=Consistency(
                write=settings.CASSANDRA_WRITE_CONSISTENCY, read=settings.CASSANDRA_READ_CONSISTENCY
            ),
        )
    raise RuntimeError(f"unknown HISTORY_BACKEND {backend!r}: use sql or cassandra")
