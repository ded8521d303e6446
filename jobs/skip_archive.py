"""The skipped-run ledger's entries move to the history store with the jobs, after the
delay of succeeded jobs (ARCHIVE_SUCCEEDED_AFTER_SECONDS since last written): every entry
but a task's open one, which a next skip may still extend. A deleted task's entries (and
those of a purged task, which has no row) all move.

History first, then the delete of exactly what was read: a crash in between leaves an entry
in both stores (the read lists it once), never in neither.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from history.records import HistoryStore
from history.stores import history_store
from tasks.models import SkippedRun, Task, TaskStatus
from tasks.skipped_reads import skip_record


def _movable(now: datetime) -> Q:
    cutoff = now - timedelta(seconds=settings.ARCHIVE_SUCCEEDED_AFTER_SECONDS)
    still_open = Task.objects.filter(id=OuterRef("task_id"), open_skip_id=OuterRef("id")).exclude(
        status=TaskStatus.DELETED
    )
    return Q(recorded_at__lte=cutoff) & ~Q(Exists(still_open))


def archive_skips(
    *, now: datetime | None = None, batch_size: int = 500, store: HistoryStore | None = None
) -> tuple[int, int]:
    """Move one batch; returns (written to history, deleted from skipped_runs)."""
    movable = _movable(now or timezone.now())
    entries = list(SkippedRun.objects.filter(movable).order_by("recorded_at")[:batch_size])
    if not entries:
        return 0, 0
    (store or history_store()).write_skips([skip_record(entry) for entry in entries])
    ids = [entry.id for entry in entries]
    deleted, _ = SkippedRun.objects.filter(movable, id__in=ids).delete()
    return len(entries), deleted
