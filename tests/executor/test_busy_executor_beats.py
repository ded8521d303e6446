"""An executor busy with calls that outlast the heartbeat limit still beats: the reconciler
never takes a live executor for dead (execution/executor_beat.py)."""

import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from execution import heartbeats
from jobs.models import Job
from jobs.queue.dead_holders import return_dead_holders_jobs
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)
DEAD_AFTER = 1


def test_a_busy_executor_is_never_taken_for_dead(settings, endpoint, make_job, run_executor):
    settings.EXECUTOR_DEAD_AFTER_SECONDS = DEAD_AFTER
    heartbeats.forget_beats()
    due = datetime.now(UTC) + timedelta(seconds=1)
    # Calls of 4 s, four times the limit, and more jobs than slots: some wait their turn.
    jobs = [make_job(endpoint.url(f"/slow/4?n={n}"), due=due) for n in range(60)]
    run_executor(concurrency=40)
    deadline = time.monotonic() + 30
    while Job.objects.filter(status="succeeded").count() < len(jobs):
        assert return_dead_holders_jobs(dead_after=DEAD_AFTER).total == 0
        assert time.monotonic() < deadline, "the calls did not all end"
        time.sleep(0.1)
    wait_for_status(jobs, {"succeeded"})
    assert set(Job.objects.values_list("attempt", flat=True)) == {1}
    keys = Counter(r.headers["Idempotency-Key"] for r in endpoint.requests_for("/slow"))
    assert set(keys.values()) == {1} and len(keys) == len(jobs)
