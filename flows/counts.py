"""What a flow has out and has started: read from its rows, never kept as counters, so a
call whose job was handed back or whose lease expired stops counting by itself."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings

from flows.models import Flow
from flows.room import Room
from scheduler_site.sqltools import datetime_from_db, datetime_param

# A call is out while its job runs the attempt it was let out for.
IN_FLIGHT = """
SELECT c.flow_id, COUNT(*) FROM flow_calls AS c JOIN jobs AS j ON j.id = c.job_id
WHERE c.flow_id IN ({placeholders}) AND j.status = 'running' AND j.attempt = c.attempt
GROUP BY c.flow_id
"""

WINDOW = "SELECT COALESCE(SUM(calls), 0), MIN(at) FROM flow_starts WHERE flow_id = %s AND at > %s"


def rooms_for(cursor, flows: Iterable[Flow], now: datetime) -> dict[int, Room]:
    flows = list(flows)
    if not flows:
        return {}
    ids = [flow.id for flow in flows]
    cursor.execute(IN_FLIGHT.format(placeholders=", ".join(["%s"] * len(ids))), ids)
    out = {flow_id: count for flow_id, count in cursor.fetchall()}
    rooms = {}
    for flow in flows:
        started, opens_at = _window(cursor, flow, now) if flow.rate is not None else (0, None)
        rooms[flow.id] = Room(flow, out.get(flow.id, 0), started, opens_at, now)
    return rooms


def _window(cursor, flow: Flow, now: datetime) -> tuple[int, datetime | None]:
    span = timedelta(seconds=flow.period_seconds + settings.FLOW_RATE_GUARD_SECONDS)
    cursor.execute(WINDOW, [flow.id, datetime_param(now - span)])
    started, oldest = cursor.fetchone()
    oldest = datetime_from_db(oldest) if oldest is not None else None
    return int(started), (oldest + span if oldest is not None else None)
