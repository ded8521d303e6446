"""Schedulers share the 1,024 buckets through lease rows in the database (no etcd).

The buckets are grouped into partitions of contiguous ranges. Every scheduler heartbeats
into `scheduler_nodes`; the live ones split the partitions evenly. A scheduler renews the
leases it holds, gives back what exceeds its share (so a newcomer gets some), and takes
free or expired ones up to its share. A dead scheduler stops renewing, so its partitions
are taken over once their lease expires. Two schedulers on one partition for a moment can
only produce duplicate inserts, which the jobs' unique key makes no-ops.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tasks.models import BUCKET_COUNT, SchedulerLease, SchedulerNode


def partition_ranges(partitions: set[int], partition_count: int) -> list[tuple[int, int]]:
    """The bucket ranges (inclusive) covered by some partitions, adjacent ones merged."""
    size = BUCKET_COUNT // partition_count
    ranges: list[tuple[int, int]] = []
    for partition in sorted(partitions):
        low = partition * size
        high = BUCKET_COUNT - 1 if partition == partition_count - 1 else low + size - 1
        if ranges and ranges[-1][1] == low - 1:
            ranges[-1] = (ranges[-1][0], high)
        else:
            ranges.append((low, high))
    return ranges


class PartitionLeases:
    """One scheduler's view of the partitions it owns."""

    def __init__(self, *, node_id: str, partition_count: int, lease_seconds: float) -> None:
        if BUCKET_COUNT % partition_count:
            raise ValueError(f"the partition count must divide {BUCKET_COUNT}")
        self.node_id = node_id
        self.partition_count = partition_count
        self.lease = timedelta(seconds=lease_seconds)
        self.owned: set[int] = set()

    @classmethod
    def from_settings(cls, node_id: str) -> PartitionLeases:
        return cls(
            node_id=node_id,
            partition_count=settings.SCHEDULER_PARTITIONS,
            lease_seconds=settings.SCHEDULER_LEASE_SECONDS,
        )

    def ensure_rows(self) -> None:
        SchedulerLease.objects.bulk_create(
            [SchedulerLease(partition=p) for p in range(self.partition_count)],
            ignore_conflicts=True,
        )

    def rebalance(self, now: datetime | None = None) -> set[int]:
        """Heartbeat, renew, give back the excess, take up to the fair share."""
        now = now or timezone.now()
        expires = now + self.lease
        SchedulerNode.objects.update_or_create(node_id=self.node_id, defaults={"heartbeat_at": now})
        share = self._fair_share(now)
        mine = SchedulerLease.objects.filter(
            owner=self.node_id, expires_at__gt=now, partition__lt=self.partition_count
        )
        mine.update(expires_at=expires)
        owned = set(mine.values_list("partition", flat=True))
        for partition in sorted(owned, reverse=True)[: max(0, len(owned) - share)]:
            self._release(partition)
            owned.discard(partition)
        if len(owned) < share:
            owned |= self._acquire(share - len(owned), now, expires)
        self.owned = owned
        return owned

    def release_all(self) -> None:
        """On a clean stop: hand everything back at once instead of waiting for expiry."""
        SchedulerLease.objects.filter(owner=self.node_id).update(owner=None, expires_at=None)
        SchedulerNode.objects.filter(node_id=self.node_id).delete()
        self.owned = set()

    def bucket_ranges(self) -> list[tuple[int, int]]:
        return partition_ranges(self.owned, self.partition_count)

    def _fair_share(self, now: datetime) -> int:
        SchedulerNode.objects.filter(heartbeat_at__lt=now - 3 * self.lease).delete()
        live = SchedulerNode.objects.filter(heartbeat_at__gt=now - self.lease).count()
        return math.ceil(self.partition_count / max(1, live))

    def _release(self, partition: int) -> None:
        SchedulerLease.objects.filter(partition=partition, owner=self.node_id).update(
            owner=None, expires_at=None
        )

    def _acquire(self, wanted: int, now: datetime, expires: datetime) -> set[int]:
        free = Q(owner__isnull=True) | Q(expires_at__isnull=True) | Q(expires_at__lte=now)
        candidates = (
            SchedulerLease.objects.filter(free, partition__lt=self.partition_count)
            .order_by("partition")
            .values_list("partition", flat=True)
        )
        taken: set[int] = set()
        for partition in candidates:
            if len(taken) >= wanted:
                break
            with transaction.atomic():
                claimed = (
                    SchedulerLease.objects.filter(partition=partition)
                    .filter(free)
                    .update(owner=self.node_id, expires_at=expires)
                )
            if claimed:
                taken.add(partition)
        return taken
