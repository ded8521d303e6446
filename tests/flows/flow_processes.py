"""Real executors and flow jobs for the flow tests: the executors run as processes on the
test database; the jobs are made through the ORM, all of one task, due at one instant."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.db.models import F

from flows.models import Flow
from jobs.models import Job
from scheduler_site.ids import new_id
from tasks.models import Task, Tenant
from tasks.services import bucket_for
from tests.processes import ManagedProcess, stop_all, wait_until

LATER = datetime(2100, 1, 1, tzinfo=UTC)


def flow_of(tenant: Tenant, key: str = "api", **limits) -> Flow:
    if not tenant.uses_flows:
        Tenant.objects.filter(id=tenant.id).update(uses_flows=True)
        tenant.uses_flows = True
    return Flow.objects.create(tenant=tenant, key=key, **limits)


def queue_jobs(tenant: Tenant, url: str, count: int, *, flow_key: str | None = None, **fields):
    """`count` jobs of one new task, not due yet (`make_due` brings them due together)."""
    task_id = new_id()
    task = Task.objects.create(
        id=task_id,
        tenant=tenant,
        url=url,
        run_at=LATER,
        status="completed",
        bucket=bucket_for(task_id),
        flow_key=flow_key,
    )
    Job.objects.bulk_create(
        (
            Job(
                tenant=tenant,
                task=task,
                scheduled_at=LATER + timedelta(microseconds=n),  # one job per instant
                next_attempt_at=LATER,
                **fields,
            )
            for n in range(count)
        ),
        batch_size=5000,
    )
    return task


def make_due(tasks: list[Task], at: datetime | None = None) -> datetime:
    """The tasks' jobs all due at `at` (now by default), in one statement; each is
    scheduled a microsecond after the one before (a task has one job per instant)."""
    moment = at or datetime.now(UTC)
    Job.objects.filter(task__in=tasks).update(
        scheduled_at=F("scheduled_at") - (LATER - moment), next_attempt_at=moment
    )
    return moment


def executor(tmp_path: Path, name: str, *args: str, env: dict | None = None) -> ManagedProcess:
    return ManagedProcess(
        ["run_executor", "--worker-id", name, "--poll-interval", "0.2", *args],
        tmp_path / f"{name}.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8", "LOG_LEVEL": "INFO", **(env or {})},
    )


@contextmanager
def executors(tmp_path: Path, count: int = 2, *args: str, env: dict | None = None):
    """`count` executors, each polling (its first claim made) before the test goes on."""
    processes = [executor(tmp_path, f"flow-exec-{n}", *args, env=env) for n in range(count)]
    try:
        for process in processes:
            wait_until(lambda p=process: "executor claimed=" in p.log(), timeout=30, message="idle")
        yield processes
    finally:
        stop_all(processes)


def wait_for_statuses(tasks: list[Task], status: str, count: int, timeout: float) -> None:
    wait_until(
        lambda: Job.objects.filter(task__in=tasks, status=status).count() >= count,
        timeout=timeout,
        interval=0.2,
        message=f"fewer than {count} jobs {status}",
    )
