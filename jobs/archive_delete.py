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


# A job's attempts go with it, and only then: a job still in the queue keeps its log.
DELETE_ATTEMPTS_MYSQL = """
DELETE a FROM JSON_TABLE(%s, '$[*]' COLUMNS (id CHAR(36) PATH '$[0]')) AS c
STRAIGHT_JOIN job_attempts AS a ON a.job_id = c.id
WHERE NOT EXISTS (SELECT 1 FROM jobs AS j WHERE j.id = c.id)
"""

DELETE_ATTEMPTS_SQLITE = """
DELETE FROM job_attempts
WHERE job_id IN (SELECT value ->> '$[0]' FROM json_each(%s))
    AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.id = job_attempts.job_id)
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
    batch = [[uuid_param(job.id), job.status, job.attempt] for job in jobs]
    if is_mysql():
        statement, params = DELETE_MYSQL, [json.dumps(batch)]
        attempts = DELETE_ATTEMPTS_MYSQL
    else:
        statement = delete_sqlite(len(jobs))
        params = [value for row in batch for value in row]
        attempts = DELETE_ATTEMPTS_SQLITE
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
        deleted = cursor.rowcount
        cursor.execute(attempts, [json.dumps(batch)])
        return deleted
