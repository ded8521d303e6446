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

# The rows of jobs that left `throttled` by another way (cancelled with their deleted task,
# say): they would take the flow's room in every release and let no job go.
FORGET_GONE = """
DELETE FROM flow_waits WHERE flow_id = %s AND NOT EXISTS (
    SELECT 1 FROM jobs AS j WHERE j.id = flow_waits.job_id AND j.status = 'throttled')
"""


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
        # A rate counts starts and a probe must be called: only jobs due now go for them.
        only_due = room.flow.rate is not None or room.probe_next()
        horizon = now if only_due else now + timedelta(seconds=lookahead_seconds)
        went = _let_go(cursor, flow_id, horizon, room_now, now, lock) if room_now > 0 else 0
        wake = _earliest(wake, room.reopens_at())
        if only_due and room_now > went:  # room left, none due: wake when the next one is
            wake = _earliest(wake, _next_due(cursor, flow_id))
    return wake


def _let_go(cursor, flow_id: int, horizon: datetime, count: int, now: datetime, lock: str) -> int:
    went, gone = _unpark(cursor, flow_id, horizon, count, now, lock)
    if gone:  # rows of jobs gone took some of the room: forget them all, then fill it
        cursor.execute(FORGET_GONE, [flow_id])
        went += _unpark(cursor, flow_id, horizon, count - went, now, lock)[0]
    return went


def _unpark(
    cursor, flow_id: int, horizon: datetime, count: int, now: datetime, lock: str
) -> tuple[int, bool]:
    """How many jobs went back, and whether some rows read were of jobs gone."""
    if count <= 0:
        return 0, False
    cursor.execute(DUE_WAITS.format(lock=lock), [flow_id, datetime_param(horizon), count])
    keys = [row[0] for row in cursor.fetchall()]
    if not keys:
        return 0, False
    marks = ", ".join(["%s"] * len(keys))
    cursor.execute(UNPARK.format(placeholders=marks), [datetime_param(now), *keys])
    went = cursor.rowcount
    cursor.execute(FORGET.format(placeholders=marks), [flow_id, *keys])
    return went, went < len(keys)


def _next_due(cursor, flow_id: int) -> datetime | None:
    cursor.execute(NEXT_DUE, [flow_id])
    row = cursor.fetchone()
    return datetime_from_db(row[0]) if row and row[0] is not None else None
