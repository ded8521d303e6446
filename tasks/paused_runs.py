"""The runs a paused cron or interval task did not make: on resume, every run from the
next_run_at it was paused at up to its new one is one `paused` entry of the ledger."""

from __future__ import annotations

from datetime import datetime

from tasks.models import SkipReason, Task
from tasks.run_counts import runs_in
from tasks.task_skips import record_task_skip
from tasks.timing import ONE_MICROSECOND, schedule_of


def record_paused_runs(task: Task, paused_at_run: datetime | None, now: datetime) -> list[str]:
    """`paused_at_run` is the task's next_run_at before the resume moved it; returns the
    task fields to save."""
    if task.is_one_off or paused_at_run is None:
        return []
    end = task.next_run_at or now + ONE_MICROSECOND  # no next run: every one until now
    span = runs_in(schedule_of(task), paused_at_run, end)
    return record_task_skip(task, SkipReason.PAUSED, span, now)
