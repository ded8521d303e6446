"""Row locks between the executor's result write and the reconciler (MariaDB only: the
embedded SQLite mode has one writer at a time)."""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from jobs.attempts import attempts_for
from jobs.models import Job
from jobs.queue import JobResult, claim_jobs, record_results
from jobs.queue.engine import queue_engine

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_late_result_waits_for_the_reconciler_holding_its_job_and_is_dropped(make_job):
    if connection.vendor != "mysql":
        pytest.fail("row locks are MariaDB's: run with DATABASE_URL=mysql://...")
    job = make_job("http://127.0.0.1:9/never")
    (claimed,) = claim_jobs(
        worker_id="a", critical_limit=10, normal_limit=10, lookahead_seconds=0
    ).jobs
    Job.objects.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))
    reconciled, release = threading.Event(), threading.Event()

    def reconciler() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            queue_engine().reconcile(cursor, 10)
            reconciled.set()
            release.wait(10)  # holds the job's row while the executor writes
        connection.close()

    holder = threading.Thread(target=reconciler)
    holder.start()
    assert reconciled.wait(10)
    now = datetime.now(UTC)
    late = JobResult(claimed.key, 1, "succeeded", finished_at=now, started_at=now)
    threading.Timer(0.5, release.set).start()
    assert record_results(worker_id="a", results=[late]) == 0  # waited, then fenced out
    holder.join(10)
    assert [a.error for a in attempts_for(job_id=job.id)] == ["lease expired"]
