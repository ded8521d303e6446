"""What a flow has out and has started: read from its rows, never kept as counters, so a
call whose job was handed back or whose lease expired stops counting by itself."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from flows.models import Flow
from flows.room import Room, window_span
from scheduler_site.sqltools import datetime_from_db, datetime_param

# A call is out while its job runs the attempt it was let out for.
IN_FLIGHT = """
SELECT c.flow_id, COUNT(*) FROM flow_calls AS c JOIN jobs AS j ON j.id = c.job_id
WHERE c.flow_id IN ({placeholders}) AND j.status = 'running' AND j.attempt = c.attempt
GROUP BY c.flow_id
"""

# One part per rate-limited flow, in one statement: a tenant with many full flows must not
# cost every claim a round trip each. Each part is one range of flow_starts_window_idx.
WINDOW_PART = (
    "SELECT %s, COALESCE(SUM(calls), 0), MIN(at) FROM flow_starts WHERE flow_id = %s AND at > %s"
)
WINDOW_PARTS = 500  # per statement: a bounded statement, whatever the number of flows


def rooms_for(cursor, flows: Iterable[Flow], now: datetime) -> dict[int, Room]:
    flows = list(flows)
    if not flows:
        return {}
    ids = [flow.id for flow in flows]
    cursor.execute(IN_FLIGHT.format(placeholders=", ".join(["%s"] * len(ids))), ids)
    out = {flow_id: count for flow_id, count in cursor.fetchall()}
    windows = _windows(cursor, [flow for flow in flows if flow.rate is not None], now)
    return {
        flow.id: Room(flow, out.get(flow.id, 0), *windows.get(flow.id, (0, None)), now)
        for flow in flows
    }


def _windows(cursor, flows: list[Flow], now: datetime) -> dict[int, tuple[int, datetime | None]]:
    """Flow id -> (calls started in its rate's window, when the oldest of them leaves it)."""
    span = {flow.id: window_span(flow.period_seconds) for flow in flows}
    found = {}
    for start in range(0, len(flows), WINDOW_PARTS):
        chunk = flows[start : start + WINDOW_PARTS]
        params = []
        for flow in chunk:
            params += [flow.id, flow.id, datetime_param(now - span[flow.id])]
        cursor.execute(" UNION ALL ".join([WINDOW_PART] * len(chunk)), params)
        for flow_id, started, oldest in cursor.fetchall():
            opens_at = datetime_from_db(oldest) + span[flow_id] if oldest is not None else None
            found[flow_id] = (int(started), opens_at)
    return found
