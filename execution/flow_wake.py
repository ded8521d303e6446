"""When the executor claims again for a flow that held jobs back: at the instant the claim
said it may next have room (a rate window reopening, an open circuit's retry time, a parked
job of a rate flow coming due), not a poll interval later."""

from __future__ import annotations

from datetime import UTC, datetime

# Never sooner than this: a wake time just past (the clock moved on during the round) is
# still a wait, not a busy loop.
MIN_WAIT_SECONDS = 0.01
# A wake time further past than this is stale (another executor took those jobs): ignored.
STALE_SECONDS = 0.05


def until_flow_wake(wake_at: datetime | None, wait: float, now: datetime | None = None) -> float:
    """`wait`, or less: the seconds until `wake_at`."""
    if wake_at is None:
        return wait
    left = (wake_at - (now or datetime.now(UTC))).total_seconds()
    if left < -STALE_SECONDS:
        return wait
    return min(wait, max(left, MIN_WAIT_SECONDS))
