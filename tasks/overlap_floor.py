"""Forgetting a task's overlap_floor: the instant before which none of its jobs is
unfinished, which the tick keeps so that its overlap check reads a task from there on
(tasks/overlap.py). A job made or revived outside the schedule's order (run now, backfill, a
retry of a dead job) may sit before it, so each of those clears it, in its own transaction;
the next tick then reads the task's jobs whole, once, and sets it again."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from tasks.models import Task


def forget_overlap_floor(task_ids: Iterable[uuid.UUID]) -> None:
    # update(): the row's updated_at stays (it orders the executors' stopped-task reads).
    Task.objects.filter(id__in=list(task_ids), overlap_floor__isnull=False).update(
        overlap_floor=None
    )
