"""What the quotas do not bound: finished tasks (deleted or completed) and run now keys,
purged by the archiver after their retention, in bounded batches over their own indexes.

A task goes only once no job of it is left in the jobs table (the archiver has moved them
all to the history). Jobs hold no foreign key to their task, so this check is what keeps
every job's task in place. The task rows are locked before the jobs are looked for: a run
now or an edit that locked one first is skipped (SKIP LOCKED), one that comes after finds
the task gone (404).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from jobs.models import FailureAlert, Job, RunNowKey
from tasks.models import Task, TaskStatus

PURGED_STATUSES = (TaskStatus.DELETED, TaskStatus.COMPLETED)
Position = tuple[datetime, uuid.UUID]  # (updated_at, id): the purge index's order


def _past_retention(status: str, cutoff: datetime) -> Q:
    kept = Q(status=status, updated_at__lt=cutoff)
    if status == TaskStatus.COMPLETED:
        # The tick completes a one-off without touching updated_at: its run is its end.
        kept &= Q(run_at__isnull=True) | Q(run_at__lt=cutoff)
    return kept


def _after(position: Position | None) -> Q:
    if position is None:
        return Q()
    moment, task_id = position
    return Q(updated_at__gt=moment) | Q(updated_at=moment, id__gt=task_id)


def purge_candidates(status: str, cutoff: datetime, after: Position | None):
    """Tasks of `status` past the retention, in the purge index's order after `after`."""
    query = Task.objects.filter(_past_retention(status, cutoff), _after(after))
    return query.order_by("updated_at", "id").values_list("updated_at", "id")


def tasks_with_jobs(task_ids: list[uuid.UUID]):
    """Which of the tasks a job in the queue still refers to (through the run key)."""
    return Job.objects.filter(task_id__in=task_ids).values_list("task_id", flat=True).distinct()


def purge_task_batch(
    *, status: str, cutoff: datetime, after: Position | None, limit: int
) -> tuple[int, Position | None]:
    """Delete up to `limit` tasks of `status` past the retention that no job refers to,
    reading on from `after`; returns (deleted, where it stopped: None when at the end)."""
    with transaction.atomic():
        candidates = purge_candidates(status, cutoff, after)
        found = list(candidates.select_for_update(skip_locked=True)[:limit])
        if not found:
            return 0, None
        ids = [task_id for _, task_id in found]
        busy = set(tasks_with_jobs(ids))
        deleted = 0
        if len(busy) < len(ids):
            purged = [i for i in ids if i not in busy]
            deleted, _ = Task.objects.filter(id__in=purged).delete()
            # The alert pace has no foreign key to its task: it goes with it, or stays forever.
            FailureAlert.objects.filter(task_id__in=purged).delete()
    return deleted, (found[-1] if len(found) == limit else None)


def expired_run_now_keys(cutoff: datetime):
    return RunNowKey.objects.filter(created_at__lt=cutoff).order_by("created_at")


def purge_run_now_key_batch(*, cutoff: datetime, limit: int) -> int:
    """Delete up to `limit` run now keys made before `cutoff`, oldest first."""
    expired = expired_run_now_keys(cutoff)
    ids = list(expired.values_list("id", flat=True)[:limit])
    if not ids:
        return 0
    deleted, _ = RunNowKey.objects.filter(id__in=ids, created_at__lt=cutoff).delete()
    return deleted


@dataclass
class StoragePurge:
    """The archiver's purge, a bounded number of batches a round. It remembers where each
    status stopped, so tasks still waiting for their jobs are stepped over, not read again
    at the front of the range every round."""

    batch_size: int = 500
    max_batches: int = 4
    after: dict[str, Position | None] = field(default_factory=dict)

    def run(self, *, now: datetime | None = None) -> tuple[int, int]:
        """One round; returns (tasks purged, run now keys purged)."""
        now = now or timezone.now()
        tasks = sum(self._tasks(status, now) for status in PURGED_STATUSES)
        return tasks, self._run_now_keys(now)

    def _tasks(self, status: str, now: datetime) -> int:
        cutoff = now - timedelta(days=settings.TASK_RETENTION_DAYS)
        purged = 0
        for _ in range(self.max_batches):
            deleted, self.after[status] = purge_task_batch(
                status=status, cutoff=cutoff, after=self.after.get(status), limit=self.batch_size
            )
            purged += deleted
            if self.after[status] is None:
                break  # the end of the range: the next round starts from its front
        return purged

    def _run_now_keys(self, now: datetime) -> int:
        cutoff = now - timedelta(hours=settings.RUN_NOW_KEY_RETENTION_HOURS)
        purged = 0
        for _ in range(self.max_batches):
            deleted = purge_run_now_key_batch(cutoff=cutoff, limit=self.batch_size)
            purged += deleted
            if deleted < self.batch_size:
                break
        return purged
