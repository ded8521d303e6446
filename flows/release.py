"""Parked jobs go back: at the start of every claim, each flow with jobs in `flow_waits` lets
as many of its due ones back into the pending range as it has room for, best priority and
oldest due time first, so the claim that follows takes them in their place.

The room is read without the flows' locks: letting too many back only has the gate park
the extra ones again (under the lock), and the claim stays free of lock waits here.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flows.counts import rooms_for
from flows.gate import _earliest
from flows.models import Flow
from scheduler_site.sqltools import datetime_from_db, datetime_param

WAITING_FLOWS = "SELECT DISTINCT flow_id FROM flow_waits"

DUE_WAITS = """
SELECT job_id FROM flow_waits
WHERE flow_id = %s AND next_attempt_at <= %s
ORDER BY priority, next_attempt_at LIMIT %s{lock}
"""

NEXT_DUE = "SELECT MIN(next_attempt_at) FROM flow_waits WHERE flow_id = %s"

UNPARK = """
UPDATE jobs SET status = 'pending', updated_at = %s
WHERE id IN ({placeholders}) AND status = 'throttled'
"""

FORGET = "DELETE FROM flow_waits WHERE flow_id = %s AND job_id IN ({placeholders})"


def release_waiting(
    cursor, *, now: datetime, lookahead_seconds: float, limit: int, lock: str
) -> datetime | None:
    """Let parked jobs with room go back to pending (up to `limit` per flow); returns when a
    flow that still holds jobs back may next have room without a call ending."""
    cursor.execute(WAITING_FLOWS)
    ids = [row[0] for row in cursor.fetchall()]
    if not ids:
        return None
    flows = {flow.id: flow for flow in Flow.objects.filter(id__in=ids)}
    rooms = rooms_for(cursor, flows.values(), now)
    wake = None
    for flow_id in ids:
        room = rooms.get(flow_id)
        if room is None:  # deleted: its jobs go back, to a flow made anew with defaults
            _let_go(cursor, flow_id, now + timedelta(seconds=lookahead_seconds), limit, now, lock)
            continue
        room_now = min(room.free(), limit)
        rate = room.flow.rate is not None
        horizon = now if rate else now + timedelta(seconds=lookahead_seconds)
        went = _let_go(cursor, flow_id, horizon, room_now, now, lock) if room_now > 0 else 0
        wake = _earliest(wake, room.reopens_at())
        if rate and room_now > went:  # room left, none due: wake when the next one is
            wake = _earliest(wake, _next_due(cursor, flow_id))
    return wake


def _let_go(cursor, flow_id: int, horizon: datetime, count: int, now: datetime, lock: str) -> int:
    cursor.execute(DUE_WAITS.format(lock=lock), [flow_id, datetime_param(horizon), count])
    keys = [row[0] for row in cursor.fetchall()]
    if not keys:
        return 0
    marks = ", ".join(["%s"] * len(keys))
    cursor.execute(UNPARK.format(placeholders=marks), [datetime_param(now), *keys])
    cursor.execute(FORGET.format(placeholders=marks), [flow_id, *keys])
    return len(keys)


def _next_due(cursor, flow_id: int) -> datetime | None:
    cursor.execute(NEXT_DUE, [flow_id])
    row = cursor.fetchone()
    return datetime_from_db(row[0]) if row and row[0] is not None else None
