"""The flow use cases' transactions, run again when they lose a race the database reports
as an error: the flow made meanwhile by a claim or another request (IntegrityError), or
this transaction picked as a deadlock victim (concurrent first uses and deletes of one key
take the key's index locks in opposite orders). Either is a retry, never a 500; a lock wait
run out is not waited again, but answered 503 `busy` (scheduler_site/errors.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, OperationalError, transaction

from scheduler_site.sqltools import DEADLOCK, lock_refused

T = TypeVar("T")
ATTEMPTS = 5


def retried(operation: Callable[[], T]) -> T:
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                return operation()
        except IntegrityError:
            if attempt == ATTEMPTS - 1:
                raise
        except OperationalError as exc:
            if not lock_refused(exc, DEADLOCK) or attempt == ATTEMPTS - 1:
                raise
        time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")
