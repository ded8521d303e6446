"""Compressed replies cost their tenant 4 KiB, however far they inflate (issue 17)."""

import asyncio
import tracemalloc

import pytest

from execution.delivery import Delivery
from jobs.models import Job
from jobs.queue import claim_jobs
from tests.endpoints import BOMB_SIZE
from tests.executor.conftest import LOCAL, wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "raw-deflate"])
def test_a_compression_bomb_is_recorded_as_its_first_4_kib(
    endpoint, make_job, run_executor, encoding
):
    job = make_job(endpoint.url(f"/bomb/{encoding}"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert Job.objects.get(id=job.id).response_body == "a" * 4096


def test_the_call_asks_only_for_the_encodings_it_decodes(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert endpoint.requests_for("/ok")[0].headers["Accept-Encoding"] == "gzip, deflate"


def test_a_reply_in_an_encoding_the_task_asked_for_is_kept_as_its_first_raw_bytes(
    endpoint, make_job, run_executor
):
    job = make_job(endpoint.url("/brotli"), headers={"Accept-Encoding": "br"})
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert endpoint.requests_for("/brotli")[0].headers["Accept-Encoding"] == "br"
    assert Job.objects.get(id=job.id).response_body == "\ufffd" * 4096


def test_a_reply_not_encoded_as_it_says_is_kept_as_it_came(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/false-gzip"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert Job.objects.get(id=job.id).response_body == "plain after all"


def test_reading_a_bomb_never_holds_more_than_the_cap_inflated(endpoint, make_job):
    make_job(endpoint.url("/bomb/gzip"))
    [job] = claim_jobs(
        worker_id="memory", critical_limit=1, normal_limit=1, lookahead_seconds=5
    ).jobs

    async def call_once():
        delivery = Delivery(policy=LOCAL, concurrency=1)
        await delivery.start()
        try:
            return await delivery.call(job)
        finally:
            await delivery.close()

    tracemalloc.start()
    try:
        outcome = asyncio.run(call_once())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.succeeded and outcome.response_body == "a" * 4096
    assert peak < BOMB_SIZE / 8, f"{peak} bytes at the peak"


def test_one_tenants_bombs_leave_another_tenants_calls_delivered_and_recorded(
    endpoint, make_job, run_executor, other_tenant
):
    bombs = [make_job(endpoint.url(f"/bomb/gzip?n={n}")) for n in range(40)]
    others = [make_job(endpoint.url(f"/ok?n={n}"), task_tenant=other_tenant) for n in range(20)]
    run_executor()
    wait_for_status(others + bombs, {"succeeded"}, timeout=60)
    assert len(endpoint.requests_for("/ok")) == 20
    bodies = Job.objects.filter(id__in=[job.id for job in bombs]).values_list(
        "response_body", flat=True
    )
    assert set(bodies) == {"a" * 4096}
