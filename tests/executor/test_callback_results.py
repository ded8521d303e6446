"""The callbacks a result batch makes: only for the rows that batch really wrote."""

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from jobs import queue
from jobs.models import Callback
from jobs.queue import outcome

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC = "https://93.184.216.34"


def claim(worker: str) -> list:
    batch = queue.claim_jobs(
        worker_id=worker, critical_limit=10, normal_limit=10, lookahead_seconds=0
    )
    return batch.jobs


def result(claimed, succeeded: bool):
    now = datetime.now(UTC)
    return outcome(claimed, succeeded=succeeded, now=now, http_status=200 if succeeded else 500,
                   error=None if succeeded else "HTTP 500", response_body="ok", duration_ms=5,
                   started_at=now)  # fmt: skip


def test_a_result_batch_sent_again_after_an_unknown_commit_makes_no_second_callback(make_job):
    job = make_job(f"{PUBLIC}/hook", on_success_url=f"{PUBLIC}/cb")
    (claimed,) = claim("w1")
    sent = result(claimed, True)
    assert queue.record_results(worker_id="w1", results=[sent]) == 1
    # the round could not know its commit went through, and sends the same batch again
    assert queue.record_results(worker_id="w1", results=[sent]) == 0
    assert Callback.objects.filter(origin_job_id=job.id).count() == 1


def test_a_result_twice_in_one_batch_makes_one_callback(make_job):
    job = make_job(f"{PUBLIC}/hook", on_success_url=f"{PUBLIC}/cb")
    (claimed,) = claim("w1")
    sent = result(claimed, True)
    # a result with no attempt of its own (as a cancel is) writes no attempt row twice
    twice = [replace(sent, started_at=None), replace(sent, started_at=None)]
    assert queue.record_results(worker_id="w1", results=twice) == 1
    assert Callback.objects.filter(origin_job_id=job.id).count() == 1
