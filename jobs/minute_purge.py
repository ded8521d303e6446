"""The per-minute counts past their use (the console charts the last day), purged by the
archiver oldest first, in bounded batches over the minute index."""

from __future__ import annotations

from datetime import datetime, timedelta

from jobs.models import MinuteCount

KEPT_FOR = timedelta(days=2)


def purge_minute_counts(*, now: datetime, batch_size: int) -> int:
    """Delete up to `batch_size` rows of minutes older than KEPT_FOR; how many went."""
    old = MinuteCount.objects.filter(minute__lt=now - KEPT_FOR).order_by("minute")
    keys = list(old.values_list("pk", flat=True)[:batch_size])
    if not keys:
        return 0
    deleted, _ = MinuteCount.objects.filter(pk__in=keys).delete()
    return deleted
