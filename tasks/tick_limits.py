"""The tick's step for repeating tasks beyond the cron rules: the schedule of a due row
(cron or interval, bounded by ends_at) and the run limit and window applied to a plan.

A due row carries no starts_at or creation instant: its next_run_at is on the interval's
grid already, so the grid is phased from it."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from scheduler_site.sqltools import uuid_from_db
from tasks import schedule, sql
from tasks.models import SkipReason, TaskStatus
from tasks.timing import Schedule

if TYPE_CHECKING:  # the tick imports this module
    from tasks.tick import RunPlan


def due_schedule(task: sql.DueTask) -> Schedule:
    """The schedule the tick steps a due row by (the tick builds it once per task)."""
    cron = task.cron
    if cron and "H" in cron:
        cron = _hash_resolved(cron, task.id)
    if cron and not task.interval_seconds:
        return _cron_schedule(cron, task.timezone, task.ends_at)
    return Schedule(
        cron, task.timezone, task.interval_seconds, task.next_run_at, None, task.ends_at
    )


# Thousands of due tasks share a handful of (expression, zone, end) triples: one immutable
# Schedule each is shared by every tick instead of built twice per task. Keyed on the
# expression itself, so an edited cron is a new key (bounded: an idle key ages out).
@lru_cache(maxsize=8192)
def _cron_schedule(cron: str, timezone: str, ends_at: datetime | None) -> Schedule:
    # A cron schedule has no interval grid: the anchor is for interval schedules only.
    return Schedule(cron, timezone, None, None, None, ends_at)


@lru_cache(maxsize=65536)
def _hash_resolved(cron: str, task_id) -> str:
    """The expression with its `H` resolved for the task, seeded by its canonical id (the
    row's own spelling is the key, so the id is not parsed again every tick)."""
    return schedule.resolve_hash_cached(cron, str(uuid_from_db(task_id)))


def limited(task: sql.DueTask, plan: RunPlan) -> RunPlan:
    """The plan within the task's window and run limit: no run at or after ends_at, and
    the task is completed by the run that reaches max_runs (or once none is left)."""
    ended = task.ends_at is not None and plan.scheduled_at is not None
    if ended and plan.scheduled_at >= task.ends_at:
        plan = plan._replace(scheduled_at=None, next_run_at=None)
    if task.max_runs is not None:
        made = task.runs_made + (plan.scheduled_at is not None)
        if made >= task.max_runs:
            # The runs a misfire dropped after this one would never have been made: the
            # limit ends the schedule here.
            kept = tuple(skip for skip in plan.skips if skip.reason != SkipReason.MISFIRE)
            plan = plan._replace(next_run_at=None, skips=kept)
    if plan.next_run_at is None:
        return plan._replace(status=TaskStatus.COMPLETED)
    return plan
