"""The start-delay buckets of the per-minute counts (jobs.models.MinuteCount) and the
percentiles read back from them.

Counts in fixed buckets add up across executors, tenants and minutes, which a percentile
does not: a window's p99 is estimated from its summed buckets, as Prometheus does with a
histogram, interpolating inside the bucket the rank falls in.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

# Upper bounds in seconds, log-spaced from 10 ms to 5 min; above the last is one open bucket.
BOUNDS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
COLUMNS = (
    "under_10ms",
    "under_25ms",
    "under_50ms",
    "under_100ms",
    "under_250ms",
    "under_500ms",
    "under_1s",
    "under_2500ms",
    "under_5s",
    "under_10s",
    "under_30s",
    "under_60s",
    "under_300s",
    "over_300s",
)


def bucket_of(seconds: float) -> int:
    """The bucket of a start delay; an attempt started early (clocks differ) counts as 0."""
    return bisect_right(BOUNDS, seconds)


def percentile(counts: Sequence[int], q: float) -> float | None:
    """The q-quantile (0 < q <= 1) of the delays counted in `counts`, in seconds; None
    when nothing was counted. Past the last bound it is the last bound (at least that)."""
    total = sum(counts)
    if total == 0:
        return None
    rank, seen = q * total, 0
    for index, count in enumerate(counts):
        if count and seen + count >= rank:
            if index == len(BOUNDS):
                return BOUNDS[-1]
            low = BOUNDS[index - 1] if index else 0.0
            return low + (BOUNDS[index] - low) * (rank - seen) / count
        seen += count
    return BOUNDS[-1]
