"""The reconciler looks for dead executors at the pace they beat, not at its interval: a
deployment's reconciler (5 s by default, or longer) hands back a silent executor's jobs
within about EXECUTOR_DEAD_AFTER_SECONDS, while its other steps (expired leases, retries,
the flows' rows) keep to the interval."""

import threading
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
LONG_INTERVAL = 60.0


def claimed_by(worker: str, make_job) -> Job:
    job = make_job("http://127.0.0.1/x")
    claim_jobs(worker_id=worker, critical_limit=1, normal_limit=1, lookahead_seconds=0)
    return job


def test_a_long_interval_still_hands_back_a_dead_executors_jobs_within_the_limit(
    settings, make_job
):
    settings.EXECUTOR_DEAD_AFTER_SECONDS = DEAD_AFTER
    job = claimed_by("gone", make_job)
    reconciler = ReconcilerProcess(interval=LONG_INTERVAL)
    thread = threading.Thread(target=reconciler.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: reconciler.turns >= 1, timeout=10, message="no first turn")
        # Beaten for the last time after the reconciler's first (full) turn: only a check
        # between two full turns can find it stale.
        ProcessHeartbeat.objects.create(
            name="executor", instance_id="gone", last_seen=datetime.now(UTC)
        )
        started = time.monotonic()
        wait_until(
            lambda: Job.objects.get(id=job.id).status == "pending",
            timeout=DEAD_AFTER * 10,
            interval=0.05,
            message="the dead executor's job waited for the reconciler's interval",
        )
        assert time.monotonic() - started < DEAD_AFTER * 10 < LONG_INTERVAL
    finally:
        reconciler.stop()
        thread.join(30)
    assert not thread.is_alive()


def test_between_two_full_turns_an_expired_lease_waits_for_the_interval(settings, make_job):
    settings.EXECUTOR_DEAD_AFTER_SECONDS = DEAD_AFTER
    reconciler = ReconcilerProcess(interval=LONG_INTERVAL)
    assert reconciler._turn() == pytest.approx(DEAD_AFTER / 5)  # the full turn, then checks
    job = claimed_by("slow", make_job)
    lapsed = datetime.now(UTC) - timedelta(seconds=1)
    Job.objects.filter(id=job.id).update(lease_expires_at=lapsed)
    assert reconciler._turn() <= DEAD_AFTER / 5
    assert Job.objects.get(id=job.id).status == "running"
