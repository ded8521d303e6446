"""What an audit entry's `changes` hold: field values as JSON, and the difference between a
thing's fields before and after an edit."""

from __future__ import annotations

import enum
import hashlib
import uuid
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

# A longer text (a request body) is kept as its digest and length: an entry stays small
# for the years it is kept, and two versions can still be told apart.
MAX_TEXT = 1024


def jsonable(value: Any) -> Any:
    """The value as an entry stores it: instants in UTC ISO 8601, ids as text."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, str):
        return value if len(value) <= MAX_TEXT else _digest(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, (uuid.UUID, Decimal)):
        return str(value)
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(item) for item in value]
    return value


def _digest(text: str) -> dict:
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "length": len(text)}


def fields_of(thing: object, names: Iterable[str]) -> dict:
    """The named fields of a thing, as JSON."""
    return {name: jsonable(getattr(thing, name)) for name in names}


def field_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict:
    """Only the fields whose value differs: {field: {"old": ..., "new": ...}}."""
    changed = {}
    for name in sorted(set(before) | set(after)):
        old, new = jsonable(before.get(name)), jsonable(after.get(name))
        if old != new:
            changed[name] = {"old": old, "new": new}
    return changed
