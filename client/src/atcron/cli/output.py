"""What the CLI prints: aligned tables (or `field  value` lines for one object) for
people, the API's own JSON with `--json` for scripts."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from atcron._model import Record

Column = tuple[str, Callable[[Any], object]]
MAX_CELL = 60


def cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    if isinstance(value, dict):
        return ",".join(f"{key}={item}" for key, item in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value) or "-"
    text = " ".join(str(value).split())
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


def table(rows: Sequence[Any], columns: Sequence[Column], out: TextIO = sys.stdout) -> None:
    cells = [[cell(get(row)) for _, get in columns] for row in rows]
    headers = [name for name, _ in columns]
    widths = [max(len(text) for text in column) for column in zip(headers, *cells, strict=True)]
    for line in [headers, *cells]:
        padded = (text.ljust(width) for text, width in zip(line, widths, strict=True))
        out.write("  ".join(padded).rstrip())
        out.write("\n")


def fields(record: Record, out: TextIO = sys.stdout) -> None:
    """One object, a line per field, in the API's order."""
    width = max(len(name) for name in record.raw)
    for name, value in record.raw.items():
        shown = getattr(record, name, value)
        text = json.dumps(value) if isinstance(value, dict | list) and value else cell(shown)
        out.write(f"{name.ljust(width)}  {text}\n")


def as_json(value: object, out: TextIO = sys.stdout) -> None:
    json.dump(_plain(value), out, indent=2, ensure_ascii=False)
    out.write("\n")


def _plain(value: object) -> object:
    if isinstance(value, Record):
        return value.raw
    if hasattr(value, "as_json"):
        return value.as_json()
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def limited(items: Iterable[Any], limit: int | None) -> tuple[list[Any], bool]:
    """At most `limit` items (None: all), and whether more were left."""
    taken: list[Any] = []
    for item in items:
        if limit is not None and len(taken) == limit:
            return taken, True
        taken.append(item)
    return taken, False
