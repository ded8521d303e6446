"""`label=key:value` filters (repeatable: every one must match) over a JSON labels column.

The value is read with JSON_EXTRACT and a quoted path, not Django's key lookups: those read
a key made of digits as an array index. The comparison is exact on both backends (`Prod`
does not match `prod`, nor `prod ` `prod`): MariaDB's JSON_UNQUOTE answers a PAD SPACE
collation, so the value is compared under utf8mb4_nopad_bin there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from django.db.models import CharField, F, Func, Q, QuerySet, Value

from scheduler_site.errors import ValidationFailed
from tasks.labels import MAX_LABELS, key_problem, value_problem

LABEL_FORMAT = "key:value, e.g. env:prod (the key as a task's label key)"


class LabelValue(Func):
    """The string value of one key of a labels column (NULL when it is absent)."""

    output_field = CharField()
    template = "JSON_EXTRACT(%(expressions)s)"

    def __init__(self, column: str, key: str) -> None:
        super().__init__(F(column), Value(f"$.{json.dumps(key)}"))

    def as_mysql(self, compiler, connection, **extra):
        # MariaDB's JSON_EXTRACT answers the JSON text, quotes included.
        template = "JSON_UNQUOTE(JSON_EXTRACT(%(expressions)s)) COLLATE utf8mb4_nopad_bin"
        return self.as_sql(compiler, connection, template=template, **extra)


def parse_label(raw: object, field: str = "label") -> tuple[str, str]:
    """One `key:value` filter, or a 400 naming `field`."""
    if not isinstance(raw, str) or ":" not in raw:
        raise _bad(field, LABEL_FORMAT)
    key, value = raw.split(":", 1)
    problem = key_problem(key) or value_problem(value)
    if problem:
        raise _bad(field, problem)
    return key, value


def parse_labels(raws: Iterable[object], field: str = "label") -> dict[str, str]:
    """Every filter given; the same key twice with two values can match nothing: a 400."""
    wanted: dict[str, str] = {}
    for raw in raws:
        key, value = parse_label(raw, field)
        if wanted.get(key, value) != value:
            raise _bad(field, f"the key {key} is given two values")
        wanted[key] = value
    if len(wanted) > MAX_LABELS:
        raise _bad(field, f"at most {MAX_LABELS} label filters")
    return wanted


def with_labels(query: QuerySet, wanted: dict[str, str], column: str = "labels") -> QuerySet:
    """The rows whose labels hold every wanted pair."""
    if not wanted:
        return query
    aliases = {f"_label_{i}": LabelValue(column, key) for i, key in enumerate(wanted)}
    matches = Q(**{f"_label_{i}": value for i, value in enumerate(wanted.values())})
    return query.alias(**aliases).filter(matches)


def _bad(field: str, message: str) -> ValidationFailed:
    return ValidationFailed(f"{field} is not valid: {message}", fields={field: message})
