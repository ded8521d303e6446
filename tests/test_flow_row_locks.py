"""A claim does not wait for a flow another transaction holds (a result write, another
claim): it leaves that flow's jobs pending, and the next claim, at once, lets them out.
MariaDB only (row locks): on SQLite one writer holds the whole database."""

import threading
import time

import pytest
from django.db import connection, transaction

from flows.models import Flow
from jobs.models import Job
from tests.flows.flow_processes import flow_of
from tests.flows.test_claim_gate import claim

pytestmark = pytest.mark.django_db(transaction=True)
URL = "http://127.0.0.1:9/"


def hold_lock(flow_id: int, locked: threading.Event, release: threading.Event) -> None:
    try:
        with transaction.atomic():
            Flow.objects.select_for_update().get(id=flow_id)
            locked.set()
            release.wait(10)
    finally:
        connection.close()


def test_a_claim_leaves_the_jobs_of_a_flow_held_by_another_and_does_not_wait(tenant, make_job):
    if connection.vendor != "mysql":
        pytest.fail("row locks are MariaDB's: run with DATABASE_URL=mysql://...")
    flow = flow_of(tenant, parallelism=5)
    job = make_job(URL, flow_key="api")
    free = make_job(URL)
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_lock, args=(flow.id, locked, release))
    holder.start()
    try:
        assert locked.wait(10)
        started = time.monotonic()
        batch = claim()
        assert time.monotonic() - started < 2  # the lock wait would be 50 s
    finally:
        release.set()
        holder.join()
    assert [j.id for j in batch.jobs] == [str(free.id)]
    assert Job.objects.get(id=job.id).status == "pending"
    assert batch.held_back == 1  # the round claims again at once
    assert [j.id for j in claim().jobs] == [str(job.id)]
