"""Real scheduler processes on one database: every run created once, takeover on death."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.models import Count, Max, Min

from jobs.models import Job
from scheduler_site.ids import new_id
from tasks.models import SchedulerLease, Task
from tasks.partitions import partition_ranges
from tasks.services import bucket_for
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
FAST = {"SCHEDULER_LEASE_SECONDS": "3"}


def scheduler(tmp_path, name: str) -> ManagedProcess:
    return ManagedProcess(
        ["run_scheduler", "--tick", "0.2", "--lookahead", "0", "--node-id", name],
        tmp_path / f"{name}.log",
        env=FAST,
    )


def make_tasks(tenant, count: int, buckets: list[tuple[int, int]] | None = None, **fields):
    tasks = []
    while len(tasks) < count:
        task_id = new_id()
        bucket = bucket_for(task_id)
        if buckets and not any(low <= bucket <= high for low, high in buckets):
            continue
        tasks.append(
            Task(id=task_id, tenant=tenant, url="https://93.184.216.34/", bucket=bucket, **fields)
        )
    Task.objects.bulk_create(tasks, batch_size=500)
    return tasks


def owners() -> dict[str, set[int]]:
    result: dict[str, set[int]] = {}
    now = datetime.now(UTC)
    for lease in SchedulerLease.objects.filter(expires_at__gt=now):
        result.setdefault(lease.owner, set()).add(lease.partition)
    return result


def test_two_schedulers_create_every_missed_run_exactly_once(tenant, tmp_path):
    processes = [scheduler(tmp_path, "sched-a"), scheduler(tmp_path, "sched-b")]
    wait_until(
        lambda: sorted(map(len, owners().values())) == [8, 8],
        timeout=30,
        message="the two schedulers did not split the partitions",
    )
    start = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=5)
    make_tasks(tenant, 2000, cron="* * * * *", next_run_at=start)
    try:
        wait_until(
            lambda: not Task.objects.filter(next_run_at__lte=datetime.now(UTC)).exists(),
            timeout=90,
            message="schedulers did not catch up",
        )
    finally:
        stop_all(processes)
    runs = Job.objects.values("task_id").annotate(
        n=Count("id"), first=Min("scheduled_at"), last=Max("scheduled_at")
    )
    assert len(runs) == 2000
    for run in runs:
        minutes = int((run["last"] - run["first"]).total_seconds() // 60) + 1
        assert run["first"] == start and run["n"] == minutes >= 6, run
    for process in processes:
        assert "jobs=" in process.log() and "partitions=" in process.log()
    worked = [
        p
        for p in processes
        if any(
            int(part.split("=")[1]) > 0
            for line in p.log().splitlines()
            if " tick " in line
            for part in line.split()
            if part.startswith("jobs=")
        )
    ]
    assert len(worked) == 2, "both schedulers should have created jobs"


def test_killed_scheduler_leaves_its_buckets_to_the_other_and_no_run_is_skipped(tenant, tmp_path):
    survivor, victim = scheduler(tmp_path, "survivor"), scheduler(tmp_path, "victim")
    try:
        wait_until(
            lambda: sorted(map(len, owners().values())) == [8, 8],
            timeout=30,
            message="the two schedulers did not split the partitions",
        )
        victims = owners()["victim"]
        victim.kill()
        due = datetime.now(UTC)
        buckets = partition_ranges(victims, 16)
        one_offs = make_tasks(tenant, 200, buckets, cron=None, run_at=due, next_run_at=due)
        crons = make_tasks(tenant, 100, buckets, cron="* * * * *", next_run_at=due)
        took_over = wait_until(
            lambda: owners().get("survivor") == set(range(16)),
            timeout=15,
            message="partitions were not taken over",
        )
        assert took_over <= 3 + 1.5
        wait_until(
            lambda: Job.objects.filter(task__in=one_offs + crons).count() == 300,
            timeout=15,
            message="runs of the dead scheduler's buckets were not created",
        )
        assert set(Job.objects.values_list("scheduled_at", flat=True).distinct()) == {due}
    finally:
        assert survivor.stop() == 0, survivor.log()
    connection.close()


def test_sigterm_stops_a_scheduler_cleanly_and_hands_back_its_partitions(tmp_path, db):
    process = scheduler(tmp_path, "polite")
    wait_until(
        lambda: owners().get("polite") == set(range(16)),
        timeout=30,
        message="scheduler did not start",
    )
    assert process.stop(timeout=10) == 0
    assert not SchedulerLease.objects.filter(owner="polite").exists()
