"""What the archiver does with a finished callback job: it drops it. A callback is no run of
a task (its history would be a task of its own, one partition per callback in Cassandra);
what it reported is in the run it reported on. Its target row goes with its job row, never
before: a callback still in the queue keeps what it calls."""

from __future__ import annotations

from collections.abc import Iterable

from jobs.models import Callback, Job


def drop_targets(job_ids: Iterable[object]) -> int:
    """Delete the targets of these callback jobs whose job row is gone (inside the
    transaction that deleted them); returns how many went."""
    ids = list(job_ids)
    if not ids:
        return 0
    left = Job.objects.filter(id__in=ids).values("id")
    deleted, _ = Callback.objects.filter(job_id__in=ids).exclude(job_id__in=left).delete()
    return deleted
