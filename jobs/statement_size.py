"""The largest batch a statement may carry on this connection.

An oversized statement is not an outage: MariaDB ends it with 1153 or, as often,
`2006 Server has gone away`, which reads exactly like one, and the same batch would be sent
again forever. So a batch is weighed before it is sent, against the limit its connection
was opened with (read once per connection).
"""

from __future__ import annotations

import threading

from django.db import connection

from jobs.queue.engine import QueueEngine

_known = threading.local()  # Django's connections are per thread, and so is this


class ResultsTooLarge(Exception):
    """A batch of results weighs more than one statement of this connection takes."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes, more than the {limit} one statement takes")


def parameter_limit(engine: QueueEngine, cursor) -> int:
    raw = connection.connection
    if getattr(_known, "raw", None) is not raw:
        _known.raw, _known.limit = raw, engine.parameter_limit(cursor)
    return _known.limit


def known_parameter_limit() -> int | None:
    """The limit of this thread's current connection if it was read, without a query."""
    if connection.connection is None or getattr(_known, "raw", None) is not connection.connection:
        return None
    return _known.limit


def check_fits(engine: QueueEngine, cursor, text: str) -> None:
    size = engine.parameter_bytes(text)
    limit = parameter_limit(engine, cursor)
    if size > limit:
        raise ResultsTooLarge(size, limit)
