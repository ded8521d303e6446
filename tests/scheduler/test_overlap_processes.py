"""Real scheduler and executor processes, a real slow endpoint: a `skip` task's calls never
overlap, an `allow` task's do."""

from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest

from scheduler_site.ids import new_id
from tasks.models import SkippedRun, Task
from tasks.services import bucket_for
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
CALL_SECONDS = 3
BACKLOG = 5  # runs due at once: the tick makes them one after another within a second


def processes(tmp_path) -> list[ManagedProcess]:
    scheduler = ["run_scheduler", "--tick", "0.2", "--lookahead", "0", "--node-id", "s1"]
    executor = ["run_executor", "--worker-id", "e1", "--poll-interval", "0.2"]
    return [
        ManagedProcess(scheduler, tmp_path / "scheduler.log"),
        ManagedProcess(executor, tmp_path / "executor.log", env={"EGRESS_ALLOW": "127.0.0.0/8"}),
    ]


def slow_task(tenant, endpoint, overlap: str) -> Task:
    task_id = new_id()
    start = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=BACKLOG - 1)
    return Task.objects.create(
        id=task_id,
        tenant=tenant,
        url=endpoint.url(f"/slow/{CALL_SECONDS}?{overlap}"),
        cron="* * * * *",
        misfire_policy="run_all",
        overlap=overlap,
        next_run_at=start,
        bucket=bucket_for(task_id),
    )


def overlapping(arrivals: list[float]) -> int:
    """How many calls started while the one before was still being answered."""
    arrivals = sorted(arrivals)
    return sum(later - earlier < CALL_SECONDS for earlier, later in pairwise(arrivals))


def test_a_skip_task_gets_no_overlapping_calls_while_an_allow_task_does(tenant, endpoint, tmp_path):
    skip = slow_task(tenant, endpoint, "skip")
    allow = slow_task(tenant, endpoint, "allow")
    started = processes(tmp_path)
    try:
        wait_until(
            lambda: len(endpoint.requests_for(f"/slow/{CALL_SECONDS}?allow")) == BACKLOG,
            timeout=90,
            message="the allow task's backlog was not called",
        )
        wait_until(
            lambda: not Task.objects.filter(
                id=skip.id, next_run_at__lte=datetime.now(UTC)
            ).exists(),
            timeout=60,
            message="the skip task's schedule did not catch up",
        )
    finally:
        stop_all(started)
    skip_calls = [r.at for r in endpoint.requests_for(f"/slow/{CALL_SECONDS}?skip")]
    allow_calls = [r.at for r in endpoint.requests_for(f"/slow/{CALL_SECONDS}?allow")]
    assert skip_calls and overlapping(skip_calls) == 0
    assert overlapping(allow_calls) >= 1
    skipped = sum(SkippedRun.objects.filter(task_id=skip.id).values_list("count", flat=True))
    assert skipped + len(skip_calls) >= BACKLOG
    assert not SkippedRun.objects.filter(task_id=allow.id).exists()
