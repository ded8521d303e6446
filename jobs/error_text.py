"""`error_contains`: the same match on both backends, case-insensitive, accent-sensitive.

MariaDB's column collation (utf8mb4_general_ci) would also fold accents (`resume` matching
`résumé`), SQLite's LIKE folds ASCII letters only (`échec` missing `ÉCHEC`). Here both sides
are lower-cased, by the database's Unicode case mapping on MariaDB (then compared under a
binary collation) and by Python's str.lower on SQLite (a function registered on each
connection), and compared with a plain LIKE whose `%` and `_` Django escapes.
"""

from __future__ import annotations

from django.db.models import CharField, Func, QuerySet

SQLITE_LOWER = "unicode_lower"


class Lowered(Func):
    """The text lower-cased by its Unicode case mapping."""

    output_field = CharField()
    function = "LOWER"

    def as_mysql(self, compiler, connection, **extra):
        template = "LOWER(%(expressions)s) COLLATE utf8mb4_bin"
        return self.as_sql(compiler, connection, template=template, **extra)

    def as_sqlite(self, compiler, connection, **extra):
        return self.as_sql(compiler, connection, function=SQLITE_LOWER, **extra)


def with_error_containing(query: QuerySet, text: str) -> QuerySet:
    return query.alias(_error_lowered=Lowered("error")).filter(
        _error_lowered__contains=text.lower()
    )


def register_sqlite_lower(sender, connection, **kwargs) -> None:
    """connection_created: SQLite's own LOWER folds ASCII letters only."""
    if connection.vendor == "sqlite":
        connection.connection.create_function(
            SQLITE_LOWER,
            1,
            lambda text: text.lower() if text is not None else None,
            deterministic=True,
        )
