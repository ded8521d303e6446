"""The runs a paused cron or interval task did not make: on resume, every run from the
next_run_at it was paused at up to its new one is one `paused` entry of the ledger."""

from __future__ import annotations

from datetime import datetime

from tasks.models import SkipReason, Task, TaskStatus
from tasks.run_counts import RunSpan, runs_in
from tasks.task_skips import record_task_skip
from tasks.timing import ONE_MICROSECOND, schedule_of


def record_runs_paused_so_far(task: Task, before_edit: RunSpan | None, now: datetime) -> list[str]:
    """A paused task's schedule edited: the runs its old schedule missed until now (read by
    `paused_so_far` before the edit) are recorded, since the edit moves next_run_at and the
    resume then counts from there. Returns the task fields to save."""
    return record_task_skip(task, SkipReason.PAUSED, before_edit, now)


def paused_so_far(task: Task, now: datetime) -> RunSpan | None:
    """The runs a paused task's current schedule has missed up to now."""
    if task.status != TaskStatus.PAUSED or task.is_one_off or task.next_run_at is None:
        return None
    return runs_in(schedule_of(task), task.next_run_at, now + ONE_MICROSECOND)


def record_paused_runs(task: Task, paused_at_run: datetime | None, now: datetime) -> list[str]:
    """`paused_at_run` is the task's next_run_at before the resume moved it; returns the
    task fields to save."""
    if task.is_one_off or paused_at_run is None:
        return []
    end = task.next_run_at or now + ONE_MICROSECOND  # no next run: every one until now
    span = runs_in(schedule_of(task), paused_at_run, end)
    return record_task_skip(task, SkipReason.PAUSED, span, now)
