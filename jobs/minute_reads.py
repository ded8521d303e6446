"""The per-minute counts read back (jobs.models.MinuteCount): a window cut in equal slots,
each with its outcomes and its start-delay percentiles, for the whole service or one
tenant. The writers' rows are summed in the query; the slots in Python."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Sum

from jobs.minute_buckets import COLUMNS, percentile
from jobs.models import MinuteCount
from jobs.queue.minute_counts import ALL_TENANTS

COUNTERS = ("delivered", "failed", "dead", *COLUMNS)


@dataclass(frozen=True)
class Slot:
    start: datetime
    delivered: int
    failed: int
    dead: int
    delays: tuple[int, ...]  # attempts per start-delay bucket

    @property
    def p50(self) -> float | None:
        return percentile(self.delays, 0.5)

    @property
    def p99(self) -> float | None:
        return percentile(self.delays, 0.99)


def window_slots(
    *, end: datetime, span: timedelta, step: timedelta, tenant_id: uuid.UUID | None = None
) -> list[Slot]:
    """`span` up to `end` (the minute it falls in, included) in slots of `step`, oldest
    first; a slot with nothing written is all zeros."""
    last = end.replace(second=0, microsecond=0)
    first = last + timedelta(minutes=1) - span
    rows = (
        MinuteCount.objects.filter(
            tenant_id=tenant_id or ALL_TENANTS, minute__gte=first, minute__lte=last
        )
        .values("minute")
        .annotate(**{name: Sum(name) for name in COUNTERS})
    )
    count = int(span / step)
    sums = [[0] * len(COUNTERS) for _ in range(count)]
    for row in rows:
        index = int((row["minute"] - first) / step)
        for position, name in enumerate(COUNTERS):
            sums[index][position] += row[name] or 0
    return [
        Slot(first + step * index, cells[0], cells[1], cells[2], tuple(cells[3:]))
        for index, cells in enumerate(sums)
    ]
