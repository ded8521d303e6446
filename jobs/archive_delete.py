"""The archive's delete: exactly the finished jobs that were written to the history.

A row goes only if its (id, status, attempt) is still what the archiver read: a dead job
retried meanwhile no longer matches and stays in the queue. On MariaDB the batch reaches
its rows through the primary key, joined from one JSON parameter: a tuple `IN` list of a few
hundred rows makes the optimizer give up range planning (every secondary index ends in
`id`) and scan, and under REPEATABLE READ lock, the whole table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol

from django.db import connection, transaction

from scheduler_site.sqltools import is_mysql, uuid_param

DELETE_MYSQL = """
DELETE j FROM JSON_TABLE(%s, '$[*]' COLUMNS (
    id CHAR(36) PATH '$[0]', status VARCHAR(16) PATH '$[1]', attempt INT PATH '$[2]'
)) AS c
STRAIGHT_JOIN jobs AS j FORCE INDEX (PRIMARY)
    ON j.id = c.id AND j.status = c.status AND j.attempt = c.attempt
"""


class FinishedJob(Protocol):
    id: object
    status: str
    attempt: int


def delete_sqlite(count: int) -> str:
    rows = ", ".join(["(%s, %s, %s)"] * count)
    return f"DELETE FROM jobs WHERE (id, status, attempt) IN ({rows})"


def archive_delete(jobs: Sequence[FinishedJob]) -> int:
    """Delete the jobs still as read; returns how many went."""
    if not jobs:
        return 0
    if is_mysql():
        batch = [[uuid_param(job.id), job.status, job.attempt] for job in jobs]
        statement, params = DELETE_MYSQL, [json.dumps(batch)]
    else:
        statement = delete_sqlite(len(jobs))
        params = [value for job in jobs for value in (uuid_param(job.id), job.status, job.attempt)]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.rowcount
