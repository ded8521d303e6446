"""The reconciler hands back a silent executor's jobs only once it has itself reached the
database for the whole heartbeat limit: just started, or just back from an outage, every
executor's beat looks old, live ones too."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from execution.models import ProcessHeartbeat
from execution.reconciler_process import ReconcilerProcess
from jobs.models import Job
from jobs.queue import claim_jobs
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)
DEAD_AFTER = 1


@pytest.fixture
def silent_holders_job(settings, make_job):
    settings.EXECUTOR_DEAD_AFTER_SECONDS = DEAD_AFTER
    job = make_job("http://127.0.0.1/x")
    claim_jobs(worker_id="quiet", critical_limit=1, normal_limit=1, lookahead_seconds=0)
    last_seen = datetime.now(UTC) - timedelta(seconds=DEAD_AFTER + 5)
    ProcessHeartbeat.objects.create(name="executor", instance_id="quiet", last_seen=last_seen)
    return job


def test_a_reconciler_just_started_leaves_the_jobs_of_silent_executors(silent_holders_job):
    reconciler = ReconcilerProcess(interval=0.1)
    reconciler.run(once=True)
    assert Job.objects.get(id=silent_holders_job.id).status == "running"


def test_a_reconciler_up_for_the_limit_hands_them_back(silent_holders_job):
    reconciler = ReconcilerProcess(interval=0.1)
    started = time.monotonic()

    def turned_and_returned() -> bool:
        reconciler._turn()
        return reconciler.dead_holders_returned == 1

    wait_until(turned_and_returned, timeout=10, message="the jobs were not handed back")
    assert time.monotonic() - started >= DEAD_AFTER
    assert Job.objects.get(id=silent_holders_job.id).status == "pending"
