"""Rows inserted without the ORM's insert compiler, for the hot paths that write many rows
or one row many times a second (a batch's tasks, a create's task and its audit entry).

The compiler turns every field of every row into SQL on its own (field_as_sql and
prepare_value): 60% of a batch request's time, a tenth of a single create's, under the
profiler. Here each value is only converted for the database, as the ORM converts it
(`pre_save`, then `get_db_prep_save`), and the statement's text is made once.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Field, Model


def insert_head(model: type[Model], fields: list[Field]) -> str:
    """`INSERT INTO table (columns)` for these fields of the model."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns})"


def db_values(obj: Model, fields: list[Field]) -> list[object]:
    """The row's values as the database takes them; auto-set fields (updated_at) are set."""
    return [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields]


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
