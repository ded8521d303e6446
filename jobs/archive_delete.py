"""The archive's delete: exactly the finished jobs that were written to the history.

A row goes only if its (id, status, attempt) is still what the archiver read: a dead job
retried meanwhile no longer matches and stays in the queue. Its attempts go with it, and a
callback's target (jobs/callbacks/archive.py). The
batch reaches its rows through the primary key, joined from one JSON parameter (the
engine's statements, jobs/queue/mysql.py and jobs/queue/sqlite.py): on MariaDB a tuple `IN`
list of a few hundred rows made the optimizer give up range planning and scan, and under
REPEATABLE READ lock, the whole table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol

from django.db import connection, transaction

from jobs.callbacks.archive import drop_targets
from jobs.callbacks.lane import is_callback
from jobs.queue.engine import queue_engine
from scheduler_site.sqltools import uuid_param


class FinishedJob(Protocol):
    id: object
    status: str
    attempt: int
    priority: int


def archive_delete(jobs: Sequence[FinishedJob]) -> int:
    """Delete the jobs still as read; returns how many went."""
    if not jobs:
        return 0
    batch = json.dumps([[uuid_param(job.id), job.status, job.attempt] for job in jobs])
    with transaction.atomic(), connection.cursor() as cursor:
        deleted = queue_engine().archive_delete(cursor, batch)
        drop_targets(job.id for job in jobs if is_callback(job))
        return deleted
