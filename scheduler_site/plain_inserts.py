"""Rows inserted without the ORM's insert compiler, for the hot paths that write many rows
or one row many times a second (a batch's tasks, a create's task and its audit entry).

The compiler turns every field of every row into SQL on its own (field_as_sql and
prepare_value): 60% of a batch request's time, a tenth of a single create's, under the
profiler. Here each value is only converted for the database, as the ORM converts it
(`pre_save`, then `get_db_prep_save`), and the statement's text is made once.
"""

from __future__ import annotations

import uuid
from functools import lru_cache
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Field, Model

# Django's own fields of these kinds hand such a value to the database as it is (their
# conversion returns it unchanged), and every one of Django's fields sends None as NULL:
# skipping those calls is most of the conversion's time for a batch (44 fields x 500 rows).
_SENT_AS_IS = {
    str: {"CharField", "TextField"},
    int: {
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
    },
}


def insert_head(model: type[Model], fields: list[Field]) -> str:
    """`INSERT INTO table (columns)` for these fields of the model."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns})"


class Column(NamedTuple):
    """How one field's value is read off an object and handed to the database."""

    attname: str
    field: Field
    plain: bool  # read as it is: the field's pre_save is Field's own (a getattr)
    as_is: frozenset[type]  # value types sent unchanged (see _SENT_AS_IS)
    text: bool  # any str sent unchanged, a choices enum too (Django's char and text fields)


def columns(fields: list[Field]) -> list[Column]:
    """The fields' reading plan, made once per statement: asking each field for it per
    value (a Python-level Field.__hash__ for the lookup, a pre_save call) was half the
    conversion's time."""
    return [
        Column(f.attname, f, type(f).pre_save is Field.pre_save, kinds, str in kinds)
        for f in fields
        for kinds in [_sent_as_is(f)]
    ]


def db_values(obj: Model, fields: list[Field] | list[Column]) -> list[object]:
    """The row's values as the database takes them, as `get_db_prep_save` gives them;
    auto-set fields (updated_at) are set on the object."""
    database = connections[DEFAULT_DB_ALIAS]  # once, not through the proxy for each value
    plan = fields if fields and isinstance(fields[0], Column) else columns(fields)
    values = []
    for attname, field, plain, as_is, text in plan:
        value = getattr(obj, attname) if plain else field.pre_save(obj, True)
        if value is None or type(value) in as_is or (text and isinstance(value, str)):
            pass  # a char field's to_python keeps any str, a TextChoices member as it is
        else:
            value = field.get_db_prep_save(value, database)
        values.append(value)
    return values


@lru_cache(maxsize=1024)
def _sent_as_is(field: Field) -> frozenset[type]:
    """The value types this field sends unchanged: none for a field not of Django's own."""
    target = field.target_field if field.is_relation else field  # a key sends its target's
    if not type(target).__module__.startswith("django."):
        return frozenset()
    kind = target.get_internal_type()
    kept = {t for t, kinds in _SENT_AS_IS.items() if kind in kinds}
    if kind == "UUIDField" and connections[DEFAULT_DB_ALIAS].features.has_native_uuid_field:
        kept.add(uuid.UUID)  # a native column takes the UUID itself (MariaDB 10.7+)
    return frozenset(kept)


def insert_one(obj: Model) -> None:
    """Insert one new object in the caller's transaction; an auto id is read back from the
    statement's cursor, as the ORM's save would set it."""
    meta = obj._meta
    auto = meta.auto_field if obj.pk is None else None
    fields = [field for field in meta.concrete_fields if field is not auto]
    values = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.execute(
            f"{insert_head(type(obj), fields)} VALUES ({values})", db_values(obj, fields)
        )
        if auto is not None:
            obj.pk = connection.ops.last_insert_id(cursor, meta.db_table, auto.column)
    obj._state.adding, obj._state.db = False, connection.alias


def insert_many(objs: list[Model]) -> None:
    """Insert new objects of one model in the caller's transaction, in as few statements as
    the backend takes (one for 500 tasks on MariaDB); auto ids are not read back."""
    if not objs:
        return
    meta = objs[0]._meta
    fields = [field for field in meta.concrete_fields if field is not meta.auto_field]
    head = insert_head(type(objs[0]), fields)
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    size = max(1, connection.ops.bulk_batch_size(fields, objs))
    plan = columns(fields)
    with connection.cursor() as cursor:
        for start in range(0, len(objs), size):
            chunk = objs[start : start + size]
            params = [value for obj in chunk for value in db_values(obj, plan)]
            cursor.execute(f"{head} VALUES {', '.join([row] * len(chunk))}", params)
    for obj in objs:
        obj._state.adding, obj._state.db = False, connection.alias
