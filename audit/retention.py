"""The audit log's retention: entries older than AUDIT_RETENTION_DAYS are removed by the
archiver, oldest first, in bounded batches over the `at` index (as jobs/storage_purge.py
purges finished tasks)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from audit.models import AuditEntry


def expired_entries(cutoff: datetime):
    return AuditEntry.objects.filter(at__lt=cutoff).order_by("at")


def purge_audit_batch(*, cutoff: datetime, limit: int) -> int:
    """Delete up to `limit` entries written before `cutoff`; returns how many."""
    ids = list(expired_entries(cutoff).values_list("id", flat=True)[:limit])
    if not ids:
        return 0
    deleted, _ = AuditEntry.objects.filter(id__in=ids).delete()
    return deleted


@dataclass
class AuditRetention:
    """A bounded number of batches a round: a long backlog drains over several rounds."""

    batch_size: int = 500
    max_batches: int = 4

    def run(self, *, now: datetime | None = None) -> int:
        cutoff = (now or timezone.now()) - timedelta(days=settings.AUDIT_RETENTION_DAYS)
        purged = 0
        for _ in range(self.max_batches):
            deleted = purge_audit_batch(cutoff=cutoff, limit=self.batch_size)
            purged += deleted
            if deleted < self.batch_size:
                break
        return purged
