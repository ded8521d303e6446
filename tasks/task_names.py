"""Tasks by exact name. MariaDB's default collation compares names without case (and
`Nightly` would match `nightly`, `nightly ` too): the comparison is made on the binary
collation and the length there, as SQLite compares by default."""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Collate, Length

from scheduler_site.errors import ValidationFailed

MAX_NAME = 200  # Task.name's length


def with_name(query: QuerySet, name: str) -> QuerySet:
    query = query.filter(name=name)  # on the index (tenant, name), in its own collation
    if connection.vendor == "mysql":
        # ... then exactly: a collated column is compared outside any index. utf8mb4_bin
        # pads with spaces too (`nightly ` = `nightly`): the lengths must agree as well.
        exact = query.alias(exact_name=Collate("name", "utf8mb4_bin"), name_length=Length("name"))
        return exact.filter(exact_name=name, name_length=len(name))
    return query


def checked_name(name: str, field: str = "name") -> str:
    """A name as a task can hold it: 1-200 characters, no space at either end (the API trims
    a task's name, so such a name could never match), no NUL (a body's name may not hold
    one: the path, `%00`, must not make a task POST and PATCH refuse)."""
    if not name or len(name) > MAX_NAME or name != name.strip() or "\x00" in name:
        message = f"1 to {MAX_NAME} characters, without a space at either end or a NUL"
        raise ValidationFailed(f"{field}: {message}", fields={field: message})
    return name


class TaskNameInUrl:
    """Any text, a newline or a slash (sent as %0A, %2F) too: every name a task can have is
    reachable, and the view answers a name it refuses with a 400 naming it, never a 404."""

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
