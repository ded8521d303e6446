"""The scheduler tick: due tasks become jobs, in one transaction.

1. lock the due active tasks, one tight range per priority level (most urgent first);
2. insert all their jobs in one statement (an existing (task_id, scheduled_at) is a no-op);
3. advance every selected task's next_run_at in one statement (one-off tasks complete);
4. commit.
The next run is computed from the previous next_run_at, not from now, so a late tick
creates late jobs but never skips one. The tick never touches `version`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from scheduler_site.ids import new_id_text
from scheduler_site.sqltools import datetime_param
from tasks import misfire, overlap, sql
from tasks.dst_gap import with_dst_gap
from tasks.models import MAX_PRIORITY, MIN_PRIORITY, MisfirePolicy, TaskStatus
from tasks.skip_ledger import OpenEntry, Skip, record_skips
from tasks.tick_limits import due_schedule, limited
from tasks.timing import Schedule


@dataclass(frozen=True)
class TickResult:
    selected: int
    jobs: int
    completed: int
    duration_ms: float


class RunPlan(NamedTuple):
    """What the tick does with one due task."""

    scheduled_at: datetime | None  # the job to create (at the due next_run_at), if any
    next_run_at: datetime | None
    status: str
    skips: tuple[Skip, ...] = ()  # the runs not made, for the ledger, in their order


def plan_task(task: sql.DueTask, now: datetime, timing: Schedule | None = None) -> RunPlan:
    """The task's step at `now`, by `timing` (its due_schedule, built once per tick)."""
    due = task.next_run_at
    if not task.cron and not task.interval_seconds:
        return RunPlan(due, None, TaskStatus.COMPLETED)
    timing = timing or due_schedule(task)
    following = timing.next_after(due)
    policy = task.misfire_policy
    if policy == MisfirePolicy.SKIP and _missed(due, now):
        plan = _active(None, timing.next_after(now))
        return misfire.with_dropped_runs(task, plan, now, timing)
    if policy == MisfirePolicy.RUN_ONCE and following is not None and following <= now:
        plan = _active(due, timing.next_after(now))
        return misfire.with_dropped_runs(task, plan, now, timing)
    return _active(due, following)


def _missed(due: datetime, now: datetime) -> bool:
    return due < now - timedelta(seconds=settings.SCHEDULER_MISFIRE_GRACE_SECONDS)


def _active(scheduled_at: datetime | None, next_run_at: datetime | None) -> RunPlan:
    if next_run_at is None:
        return RunPlan(scheduled_at, None, TaskStatus.COMPLETED)
    return RunPlan(scheduled_at, next_run_at, TaskStatus.ACTIVE)


def run_tick(
    *,
    now: datetime | None = None,
    batch_size: int = 1000,
    lookahead_seconds: float = 0.0,
    bucket_ranges: list[tuple[int, int]] | None = None,
) -> TickResult:
    started = time.perf_counter()
    now = now or timezone.now()
    horizon = now + timedelta(seconds=lookahead_seconds)
    with transaction.atomic(), connection.cursor() as cursor:
        due = overlap.decided_now(_select_due(cursor, horizon, batch_size, bucket_ranges), now)
        busy = overlap.busy_tasks(cursor, due)
        jobs, plans, completed = _plan(due, now, busy)
        if jobs:
            sql.insert_jobs(cursor, jobs, now)
        if plans:
            made = {task_id: job_id for job_id, task_id, _ in jobs}
            sql.advance_tasks(cursor, _advances(cursor, due, plans, now, busy, made))
    duration_ms = (time.perf_counter() - started) * 1000
    return TickResult(len(due), len(jobs), completed, duration_ms)


def _select_due(cursor, horizon, batch_size, bucket_ranges) -> list[sql.DueTask]:
    return sql.select_due(
        cursor,
        priorities=range(MIN_PRIORITY, MAX_PRIORITY + 1),
        due_before=horizon,
        limit=batch_size,
        bucket_ranges=bucket_ranges,
    )


def _plan(
    due: list[sql.DueTask], now: datetime, busy: dict[str, overlap.Busy] | None = None
) -> tuple[list, list[RunPlan], int]:
    jobs, plans, completed = [], [], 0
    native_uuid = connection.features.has_native_uuid_field
    busy = busy or {}
    for task in due:
        timing = due_schedule(task) if task.cron or task.interval_seconds else None
        # overlap before the run limit: a skipped run does not count toward max_runs
        plan, job_status = overlap.with_overlap(plan_task(task, now, timing), task, busy)
        plan = with_dst_gap(task, limited(task, plan), timing)
        if plan.scheduled_at is not None:  # always the task's next_run_at, read by the insert
            jobs.append((new_id_text(native_uuid), task.id, job_status))
        plans.append(plan)
        completed += plan.status == TaskStatus.COMPLETED
    return jobs, plans, completed


def _advances(
    cursor,
    due: list[sql.DueTask],
    plans: list[RunPlan],
    now: datetime,
    busy: dict[str, overlap.Busy] | None = None,
    made: dict[str, str] | None = None,
) -> list[sql.Advance]:
    """Each task's step, after the ledger took its skips (a run made closes the entry)."""
    skips = [skip for plan in plans for skip in plan.skips]
    open_entries, closed = {}, OpenEntry(None, None)
    if skips:
        # A plan's made run is its due run, before any skip it holds: it closes the entry.
        before = {
            t.id: closed if plan.scheduled_at else OpenEntry(t.open_skip_id, t.open_skip_reason)
            for t, plan in zip(due, plans, strict=True)
        }
        open_entries = record_skips(cursor, skips, before, now)
    busy, made = busy or {}, made or {}
    advances = []
    for task, plan in zip(due, plans, strict=True):
        made_one = plan.scheduled_at is not None
        entry = open_entries.get(task.id) if open_entries else None
        if entry is None:
            entry = closed if made_one else OpenEntry(task.open_skip_id, task.open_skip_reason)
        remembered = overlap.job_to_remember(task, busy, made.get(task.id))
        advances.append(_advance(task, plan, made_one, entry, remembered))
    return advances


def _advance(
    task: sql.DueTask, plan: RunPlan, made_one: bool, entry: OpenEntry, remembered: str | None
) -> sql.Advance:
    next_run = datetime_param(plan.next_run_at) if plan.next_run_at else None
    # Most steps skip nothing: no generator to sum an empty tuple a thousand times a tick.
    skipped = sum(skip.count for skip in plan.skips) if plan.skips else 0
    plain = _plain(task, plan, made_one and not skipped, entry, remembered)
    return sql.Advance(
        task.id, next_run, plan.status, int(made_one), skipped, *entry, remembered, plain
    )


def _plain(
    task: sql.DueTask, plan: RunPlan, one_run: bool, entry: OpenEntry, remembered: str | None
) -> bool:
    """Whether the step changes only next_run_at and adds one run (the narrow statement)."""
    return (
        one_run
        and plan.status == TaskStatus.ACTIVE
        and task.open_skip_id == entry.entry_id
        and task.open_skip_reason == entry.reason
        and remembered == task.overlap_job_id
    )
