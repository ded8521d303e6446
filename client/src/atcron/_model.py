"""Typed records built from the API's JSON: known fields as attributes, everything the API
sent in `raw` (a newer server's extra fields are kept there, never refused)."""

from __future__ import annotations

import dataclasses
import typing
from datetime import datetime
from typing import Any, Self


@dataclasses.dataclass(frozen=True)
class Record:
    raw: dict[str, Any] = dataclasses.field(repr=False, compare=False, kw_only=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        hints = _hints(cls)
        values = {
            field.name: _convert(hints[field.name], data.get(field.name))
            for field in dataclasses.fields(cls)
            if field.name != "raw"
        }
        return cls(**values, raw=data)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _convert(hint: Any, value: Any) -> Any:
    if value is not None and datetime in (hint, *typing.get_args(hint)):
        return parse_time(value)
    return value


def parse_time(value: str) -> datetime:
    """The API writes RFC 3339 instants, `Z` for UTC."""
    return datetime.fromisoformat(value.replace("Z", "+00:00"))
