"""A task's next runs as the scheduler will make them: from its next_run_at, on its own
schedule (its `H` from its id, its zone's daylight-saving rules, its window), no more than
the runs its max_runs leaves."""

from __future__ import annotations

from tasks.models import Task, TaskStatus
from tasks.preview import PreviewRun, marked_run
from tasks.timing import Schedule, schedule_of


def task_next_runs(task: Task, count: int = 5) -> list[PreviewRun]:
    """The next `count` runs; none for a task the tick does not run (paused, completed,
    deleted, or of a stopped tenant)."""
    if task.status != TaskStatus.ACTIVE or task.next_run_at is None:
        return []
    limit = count
    if task.max_runs is not None:
        limit = min(count, max(task.max_runs - task.runs_made, 0))
    steps = _as_the_tick_walks(task)
    runs: list[PreviewRun] = []
    run = task.next_run_at
    while run is not None and len(runs) < limit:
        runs.append(marked_run(run, steps.cron, task.timezone))
        run = None if task.is_one_off else steps.next_after(run)
    return runs


def _as_the_tick_walks(task: Task) -> Schedule:
    """The tick's schedule of a due row (tasks/tick_limits.py): an interval's grid phased
    from next_run_at, which is on it already; cron with its `H` resolved by the task's id."""
    cron = schedule_of(task).cron
    return Schedule(
        cron, task.timezone, task.interval_seconds, task.next_run_at, None, task.ends_at
    )
