"""A stopped executor's stale beat, once found holding no job, is not looked for again until
it beats again: the look reads every running job (jobs/queue/dead_holders.py, `cleared`)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from execution.models import ProcessHeartbeat
from jobs.models import Job
from jobs.queue import claim_jobs
from jobs.queue.dead_holders import return_dead_holders_jobs

pytestmark = pytest.mark.django_db(transaction=True)
DEAD_AFTER = 5


def beat_seconds_ago(worker: str, seconds: float) -> None:
    ProcessHeartbeat.objects.update_or_create(
        name="executor",
        instance_id=worker,
        defaults={"last_seen": datetime.now(UTC) - timedelta(seconds=seconds)},
    )


def looks_for_jobs(cleared: set) -> int:
    """How many times one reconciler's check read the running jobs of stale holders."""
    with CaptureQueriesContext(connection) as queries:
        return_dead_holders_jobs(dead_after=DEAD_AFTER, cleared=cleared)
    return sum("worker_id IN" in query["sql"] for query in queries)


def test_a_stale_beat_found_holding_nothing_is_not_looked_for_again():
    beat_seconds_ago("stopped", DEAD_AFTER + 2)
    cleared: set = set()
    assert looks_for_jobs(cleared) == 1
    assert looks_for_jobs(cleared) == 0


def test_a_beat_that_beats_again_then_goes_silent_is_looked_for_again(make_job):
    beat_seconds_ago("flaky", DEAD_AFTER + 2)
    cleared: set = set()
    looks_for_jobs(cleared)
    job = make_job("http://127.0.0.1/x")
    claim_jobs(worker_id="flaky", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    beat_seconds_ago("flaky", DEAD_AFTER + 1)  # it beat after the look, then went silent
    assert looks_for_jobs(cleared) == 1
    assert Job.objects.get(id=job.id).status == "pending"


def test_without_a_memory_every_check_looks():
    beat_seconds_ago("stopped", DEAD_AFTER + 2)
    with CaptureQueriesContext(connection) as queries:
        return_dead_holders_jobs(dead_after=DEAD_AFTER)
        return_dead_holders_jobs(dead_after=DEAD_AFTER)
    assert sum("worker_id IN" in query["sql"] for query in queries) == 2
