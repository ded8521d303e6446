"""The reconciler hands back a silent executor's jobs only once it has itself reached the
database for the whole heartbeat limit: just started, or just back from an outage, every
executor's beat looks old, live ones too; also after a restart of the database between two
of its turns, which fails neither (the next turn reconnects in silence)."""

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, connections

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


def cut_the_link() -> None:
    """What a database restart does to the reconciler's connection between two turns: the
    server ends it (SQLite has no server: the connection is closed, as at its age)."""
    if connection.vendor != "mysql":
        connection.close()
        return
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute("KILL CONNECTION %s", [connection.connection.thread_id()])
    finally:
        killer.close()


def test_a_database_restarted_between_two_turns_restarts_the_wait(settings, make_job):
    """No turn fails (the next one's health check reconnects in silence), yet the
    executors' beats stopped while the database was away: the wait starts again."""
    settings.EXECUTOR_DEAD_AFTER_SECONDS = DEAD_AFTER
    job = make_job("http://127.0.0.1/x")
    claim_jobs(worker_id="alive", critical_limit=1, normal_limit=1, lookahead_seconds=0)
    beat = ProcessHeartbeat.objects.create(
        name="executor", instance_id="alive", last_seen=datetime.now(UTC) + timedelta(hours=1)
    )
    reconciler = ReconcilerProcess(interval=0.1)
    up_since = time.monotonic()
    while time.monotonic() - up_since < DEAD_AFTER + 0.5:  # up for the limit
        reconciler._turn()
    # The executor's last beat before the outage, more than the limit ago once it is over.
    beat.last_seen = datetime.now(UTC) - timedelta(seconds=DEAD_AFTER + 1)
    ProcessHeartbeat.objects.bulk_update([beat], ["last_seen"])
    cut_the_link()
    reconciler._turn()
    assert reconciler.available_since is not None  # the turn itself went well
    assert Job.objects.get(id=job.id).status == "running"
    wait_until(
        lambda: reconciler._turn() is not None and reconciler.dead_holders_returned == 1,
        timeout=10,
        message="a holder still silent once the wait was over was not handed back",
    )
