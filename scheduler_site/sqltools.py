"""Converting values for raw SQL on either backend (MySQL/MariaDB or SQLite)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from django.db import OperationalError, connection

# MariaDB's answers to a lock a statement could not get. 1213: the whole transaction undone
# to break a cycle of locks (a deadlock), worth running again at once. 1205: a row lock
# waited for past innodb_lock_wait_timeout, or a table's metadata lock (a migration's) past
# lock_wait_timeout; only the statement is undone, and the atomic block it leaves rolls
# back the rest. Running that again waits as long again.
DEADLOCK = frozenset({1213})
DEADLOCK_CODES = frozenset({1213, 1205})


def lock_refused(exc: BaseException, codes: frozenset = DEADLOCK_CODES) -> bool:
    """Whether `exc` is the database refusing a lock with one of `codes`."""
    return isinstance(exc, OperationalError) and bool(exc.args) and exc.args[0] in codes


def share_lock() -> str:
    """The clause that makes a SELECT read its rows under a shared lock, so that a write in
    progress on them is waited for rather than read past (READ COMMITTED reads the last
    committed copy). SQLite needs none: its transactions take the database's write lock
    when they start (IMMEDIATE), so two writers never overlap."""
    return " LOCK IN SHARE MODE" if connection.vendor == "mysql" else ""


def uuid_param(value: uuid.UUID) -> str:
    """MariaDB's native UUID column takes the dashed form; char(32) columns take hex."""
    return str(value) if connection.features.has_native_uuid_field else value.hex


def datetime_param(value: datetime) -> str:
    """A UTC instant as the naive text both backends store and compare."""
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    return value.isoformat(" ")[:-6]  # drop the "+00:00"


NAIVE_EPOCH = datetime(1970, 1, 1)
UTC_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def datetime_from_db(value: datetime | str | None) -> datetime | None:
    """A stored (naive UTC) instant made aware. By arithmetic: `.replace(tzinfo=UTC)` costs
    about 1.5 µs on CPython 3.11, the sum a tenth of that, on every row of the tick's read."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        return UTC_EPOCH + (value - NAIVE_EPOCH)
    return value.replace(tzinfo=UTC)


def uuid_text(value: str | bytes | uuid.UUID) -> str:
    """Canonical (dashed) text of a UUID the database returned in either spelling."""
    if isinstance(value, str) and len(value) == 36:
        return value
    return str(uuid_from_db(value))


def uuid_from_db(value: str | bytes | uuid.UUID) -> uuid.UUID:
    if isinstance(value, uuid.UUID):
        return value
    if isinstance(value, bytes):
        value = value.decode()
    return uuid.UUID(value)
