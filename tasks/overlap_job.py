"""Forgetting the run a task's overlap check reads (`overlap_job_id`, tasks/overlap.py): the
tick remembers a skip or buffer_one task's newest run when it alone can be unfinished. A
job made or revived outside the schedule's order (run now, backfill, a retry of a dead run)
may be unfinished beside it, so each of those clears it, in its own transaction; the next
tick then reads the task's jobs whole, once, and remembers again."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from tasks.models import Task


def forget_overlap_job(task_ids: Iterable[uuid.UUID]) -> None:
    """Called before the job is made or revived: the task rows are locked first (in id
    order), so a tick either committed before (and this clears what it remembered) or
    waits for this transaction (SKIP LOCKED: it passes the task by) and then sees the job."""
    locked = Task.objects.select_for_update().filter(id__in=list(task_ids)).order_by("id")
    ids = list(locked.values_list("id", flat=True))
    # update(): the row's updated_at stays (it orders the executors' stopped-task reads).
    Task.objects.filter(id__in=ids).update(overlap_job_id=None)
