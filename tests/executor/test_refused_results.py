"""A result the database refuses is stored as an error; the rest of its batch is written,
and nothing is waited out as an outage (issue 17)."""

import sqlite3

import pytest
from django.db import connection
from django.db.utils import DataError, OperationalError

from jobs.models import Job, JobAttempt
from jobs.queue.engine import queue_engine
from jobs.refused_results import refusal_reason
from jobs.statement_size import ResultsTooLarge
from tests.executor.round_helpers import a_round, claim, succeeded

pytestmark = pytest.mark.django_db(transaction=True)


def claimed_with_one_more_due(make_job, count: int):
    for n in range(count):
        make_job(f"http://127.0.0.1/x?{n}")
    jobs = claim(count)
    make_job("http://127.0.0.1/later")  # for the round's claim
    return jobs


def assert_stored_as_an_error(job) -> None:
    stored = Job.objects.get(id=job.id)
    assert stored.status == "succeeded" and stored.response_body is None
    assert "could not be stored" in stored.error
    attempt = JobAttempt.objects.get(job_id=job.id)
    assert "could not be stored" in attempt.error and attempt.response_head is None


def assert_written(jobs) -> None:
    stored = Job.objects.filter(id__in=[job.key for job in jobs])
    assert [(job.status, job.response_body, job.error) for job in stored] == [
        ("succeeded", "ok", None)
    ] * len(jobs)


def test_a_value_the_database_refuses_fails_only_its_own_result(make_job):
    jobs = claimed_with_one_more_due(make_job, 8)
    database_round = a_round()
    database_round.outbox.claimed(len(jobs))
    refused = jobs[5]
    for job in jobs:
        # A negative duration: out of range for MariaDB, a failed CHECK for SQLite.
        duration = -1 if job is refused else 5
        database_round.outbox.add_result(succeeded(job, duration_ms=duration))
    report = database_round.run(claim=True)
    assert (report.written, report.refused, report.dropped) == (8, 1, 0)
    assert len(report.claimed) == 1  # the round claims as usual
    assert_stored_as_an_error(refused)
    assert_written([job for job in jobs if job is not refused])


def statement_limit() -> int:
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        connection.connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 256 * 1024)
    with connection.cursor() as cursor:
        return queue_engine().parameter_limit(cursor)


def test_a_result_too_large_for_one_statement_is_stored_without_its_body(make_job):
    jobs = claimed_with_one_more_due(make_job, 4)
    database_round = a_round(result_batch_bytes=10**9)
    too_large = succeeded(jobs[2], response_body="x" * (statement_limit() + 1))
    # As a failed round puts back what it took: past the outbox's caps, which a result
    # from before them (or a database with a smaller limit) would be.
    database_round.outbox.put_back(
        [succeeded(job) for job in jobs[:2]] + [too_large, succeeded(jobs[3])], []
    )
    report = database_round.run(claim=True)
    assert (report.written, report.refused, len(report.claimed)) == (4, 1, 1)
    assert_stored_as_an_error(jobs[2])
    assert_written([jobs[0], jobs[1], jobs[3]])


@pytest.mark.parametrize(
    "error, refused",
    [
        (OperationalError(2006, "Server has gone away"), False),
        (OperationalError(2013, "Lost connection to server during query"), False),
        (OperationalError(1213, "Deadlock found"), False),
        (OperationalError(1153, "Got a packet bigger than 'max_allowed_packet' bytes"), True),
        (DataError(1406, "Data too long for column 'error'"), True),
        (DataError("string or blob too big"), True),
        (ResultsTooLarge(20, 10), True),
    ],
)
def test_only_what_a_result_holds_counts_as_its_refusal(error, refused):
    assert (refusal_reason(error) is not None) == refused
