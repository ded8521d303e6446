"""Tasks paused or deleted since an instant: what an executor reads once a round to settle
the jobs it claimed ahead of their second (a claim reads each task's state only once).

One range of `tasks_changed_idx` per status, whatever the number of jobs held: the executor
asks what changed, never about each of its jobs.
"""

from __future__ import annotations

from datetime import datetime

from tasks.models import Task, TaskStatus

STOPPED = (TaskStatus.PAUSED, TaskStatus.DELETED)


def tasks_stopped_since(*, since: datetime) -> dict[str, str]:
    """Task id (canonical text) -> `paused` or `deleted`, for tasks changed from `since`."""
    rows = Task.objects.filter(status__in=STOPPED, updated_at__gte=since).values_list(
        "id", "status"
    )
    return {str(task_id): status for task_id, status in rows}
