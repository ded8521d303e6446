"""Parked jobs go back: at the start of every claim, each flow due for a look (its
`release_at` has come: a call of it ended, its window or cooldown ended, it was resumed)
lets as many of its due ones back into the pending range as it has room for, best priority
and oldest due time first, so the claim that follows takes them in their place. Then it
says when it next needs a look.

Only flows due for a look are read, at most LOOKS_PER_CLAIM per claim, oldest look first,
locked with SKIP LOCKED (a flow another claim or result write holds is left for the next
claim): a tenant's thousand full flows cost no claim anything until their time comes.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flows.counts import rooms_for
from flows.models import Flow
from flows.room import earliest, window_span
from scheduler_site.sqltools import datetime_from_db, datetime_param

LOOKS_PER_CLAIM = 100

DUE_WAITS = """
SELECT job_id FROM flow_waits
WHERE flow_id = %s AND next_attempt_at <= %s
ORDER BY priority, next_attempt_at LIMIT %s{lock}
"""

NEXT_DUE = "SELECT MIN(next_attempt_at) FROM flow_waits WHERE flow_id = %s"

WITH_WAITS = "SELECT DISTINCT flow_id FROM flow_waits WHERE flow_id IN ({placeholders})"

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
    flow next needs a look (the executor claims again then)."""
    planned = Flow.objects.filter(release_at__isnull=False).order_by("release_at", "id")
    looks = list(planned.values_list("id", "release_at")[:LOOKS_PER_CLAIM])
    due = [flow_id for flow_id, at in looks if at <= now]
    if not due:  # the one statement most claims make here: an empty range of an index
        return looks[0][1] if looks else None
    locking = Flow.objects.select_for_update(skip_locked=True).filter(id__in=due)
    flows = list(locking.order_by("id"))
    waiting = _with_waits(cursor, [flow.id for flow in flows]) if flows else set()
    rooms = rooms_for(cursor, [flow for flow in flows if flow.id in waiting], now)
    for flow in flows:
        room = rooms.get(flow.id)
        flow.release_at = _look(cursor, room, now, lookahead_seconds, limit, lock) if room else None
    Flow.objects.bulk_update(flows, ["release_at"])  # each looked at: its look is due
    later = [at for flow_id, at in looks if at > now]
    # Flows another transaction held are still due, and more may be due past the limit:
    # the next claim looks at once.
    if len(flows) < len(due) or (len(looks) == LOOKS_PER_CLAIM and not later):
        return now
    return min([*later, *(f.release_at for f in flows if f.release_at)], default=None)


def _look(cursor, room, now: datetime, lookahead_seconds: float, limit: int, lock: str):
    """Let this flow's due parked jobs go as its room allows; when it next needs a look
    (None: only when a call of it ends, or it is resumed or changed)."""
    flow_id = room.flow.id
    room_now = min(room.free(), limit)
    # A rate counts starts and a probe must be called: only jobs due now go for them.
    only_due = room.flow.rate is not None or room.probe_next()
    ahead = timedelta(0) if only_due else timedelta(seconds=lookahead_seconds)
    went = _let_go(cursor, flow_id, now + ahead, room_now, now, lock) if room_now > 0 else 0
    if room_now > went:  # room left, none due within reach: look when the next one is
        following = _next_due(cursor, flow_id)
        return following - ahead if following is not None else None
    if went == limit and room.free() > limit:  # the claim's limit stopped it, not the room
        return now
    if went and room.flow.rate is not None:  # they start now: the window ends at the latest
        return earliest(room.reopens_at(), now + window_span(room.flow.period_seconds))
    return room.reopens_at()


def _with_waits(cursor, ids: list[int]) -> set[int]:
    cursor.execute(WITH_WAITS.format(placeholders=", ".join(["%s"] * len(ids))), ids)
    return {row[0] for row in cursor.fetchall()}


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
