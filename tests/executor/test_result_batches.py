"""A round's results are bounded in bytes, and each result in size, before they wait."""

import pytest
from django.db import connection

from execution.executor_outbox import Outbox
from jobs.models import Job
from jobs.result_limits import encoded_size
from tests.executor.round_helpers import a_round, claim, succeeded

pytestmark = pytest.mark.django_db(transaction=True)


def filled_outbox(jobs, body: str) -> Outbox:
    outbox = Outbox()
    outbox.claimed(len(jobs))
    for job in jobs:
        outbox.add_result(succeeded(job, response_body=body))
    return outbox


def test_a_round_takes_results_up_to_its_byte_bound(make_job):
    for n in range(10):
        make_job(f"http://127.0.0.1/x?{n}")
    jobs = claim(10)
    weight = encoded_size(succeeded(jobs[0], response_body="b" * 4096))
    taken = filled_outbox(jobs, "b" * 4096).take(500, 3 * weight + 10)
    assert len(taken.results) == 3 and taken.cut_by_bytes


def test_a_result_heavier_than_the_bound_is_taken_alone(make_job):
    make_job("http://127.0.0.1/x")
    make_job("http://127.0.0.1/y")
    taken = filled_outbox(claim(2), "b" * 4096).take(500, 100)
    assert len(taken.results) == 1 and taken.cut_by_bytes


def test_a_result_is_cut_to_its_limits_before_it_waits(make_job):
    make_job("http://127.0.0.1/x")
    [job] = claim(1)
    outbox = Outbox()
    outbox.claimed(1)
    outbox.add_result(succeeded(job, response_body="b" * 10_000, error="e" * 2_000))
    [result] = outbox.take(500, 10**9).results
    assert len(result.response_body) == 4096 and len(result.error) == 500


def test_each_statement_of_a_round_carries_at_most_its_byte_bound(make_job):
    for n in range(12):
        make_job(f"http://127.0.0.1/x?{n}")
    jobs = claim(12)
    bound = 5 * encoded_size(succeeded(jobs[0], response_body="b" * 4096))
    database_round = a_round(result_batch_bytes=bound)
    database_round.outbox = filled_outbox(jobs, "b" * 4096)
    sizes, rounds = [], 0

    def record(execute, sql, params, many, context):
        sizes.extend(len(p) for p in params or () if isinstance(p, str) and p.startswith("[["))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        while database_round.outbox.results_waiting:
            report = database_round.run(claim=False)
            rounds += 1
            assert report.again == bool(database_round.outbox.results_waiting)
    assert rounds == 3 and sizes and max(sizes) <= bound
    assert Job.objects.filter(status="succeeded").count() == 12
