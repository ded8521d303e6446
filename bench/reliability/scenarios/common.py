"""What several scenarios share: the usual set of processes, a timeline of faults, a job
count read from the queue."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from django.db import close_old_connections
from django.db.utils import OperationalError

from bench.reliability.runner import Context
from jobs.models import Job

CONCURRENCY = 300


def start_all(ctx: Context, *, executors: int = 2, schedulers: int = 1) -> None:
    """The API (gunicorn behind nginx), schedulers, executors, reconciler and archiver."""
    ctx.stack.api()
    for n in range(schedulers):
        ctx.stack.scheduler(f"scheduler-{n}")
    for n in range(executors):
        ctx.stack.executor(f"executor-{n}", concurrency=CONCURRENCY)
    ctx.stack.reconciler()
    ctx.stack.archiver()
    ctx.stack.wait_ready()


def due_in(seconds: float) -> datetime:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).replace(microsecond=0)


class Timeline:
    """Actions to run once each when the scenario's clock passes their second; used as
    `during` of Context.wait_for."""

    def __init__(self, steps: list[tuple[float, Callable[[], None]]]) -> None:
        self.steps = sorted(steps, key=lambda step: step[0])

    def __call__(self, elapsed: float) -> None:
        while self.steps and self.steps[0][0] <= elapsed:
            self.steps.pop(0)[1]()

    @property
    def finished(self) -> bool:
        return not self.steps


def count_jobs(**filters: object) -> int:
    """A count from the queue; -1 while the database cannot be read (a fault under way)."""
    close_old_connections()
    try:
        return Job.objects.filter(**filters).count()
    except OperationalError:
        return -1


def handed_back_dead(ctx: Context) -> int:
    """Jobs the reconciler handed back from executors whose heartbeat went stale (before
    their leases: jobs/queue/dead_holders.py), summed from its log."""
    total = 0
    for line in ctx.stack.processes["reconciler"].log().splitlines():
        if ": handed back " in line:
            total += int(line.split(": handed back ", 1)[1].split(" ", 1)[0])
    return total


def reconciled(ctx: Context) -> int:
    """Jobs the reconciler returned (leases that expired), summed from its log."""
    total = 0
    for line in ctx.stack.processes["reconciler"].log().splitlines():
        if "reconcile returned=" in line:
            total += int(line.rsplit("=", 1)[1])
    return total
