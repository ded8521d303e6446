"""A repeating task's window and run limit in a few words, for the console's lists."""

from __future__ import annotations

from tasks.models import Task


def schedule_limits(task: Task) -> str:
    parts = []
    if task.starts_at:
        parts.append(f"from {task.starts_at:%Y-%m-%d %H:%M:%S} UTC")
    if task.ends_at:
        parts.append(f"until {task.ends_at:%Y-%m-%d %H:%M:%S} UTC")
    if task.max_runs:
        parts.append(f"{task.runs_made} of {task.max_runs} runs made")
    return f", {', '.join(parts)}" if parts else ""
