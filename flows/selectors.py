"""Reads of the tenant's flows, and each flow as the API shows it: its counts read for a
whole page at once (one grouped query each), never one query per flow."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection

from flows.counts import IN_FLIGHT
from flows.key_rule import is_flow_key
from flows.models import Flow
from scheduler_site.errors import NotFound
from tasks.models import Tenant

# Only the waits of jobs still parked: a throttled job cancelled meanwhile leaves its row
# until the release meets it, and is no longer waiting.
WAITING = """
SELECT w.flow_id, COUNT(*) FROM flow_waits AS w JOIN jobs AS j ON j.id = w.job_id
WHERE w.flow_id IN ({placeholders}) AND j.status = 'throttled'
GROUP BY w.flow_id
"""


def flow_get(*, tenant: Tenant, key: str) -> Flow:
    # A key no flow can have names none: never sent to the database (whose column may not
    # even hold its characters).
    flow = Flow.objects.filter(tenant=tenant, key=key).first() if is_flow_key(key) else None
    if flow is None:
        raise NotFound("flow not found")
    return flow


def flow_list(*, tenant: Tenant, after: str | None, limit: int) -> list[Flow]:
    """The tenant's flows by key, starting after `after`."""
    query = Flow.objects.filter(tenant=tenant)
    if after is not None:
        query = query.filter(key__gt=after)
    return list(query.order_by("key")[:limit])


def flow_bodies(flows: Sequence[Flow]) -> list[dict]:
    if not flows:
        return []
    ids = [flow.id for flow in flows]
    with connection.cursor() as cursor:
        waiting = _grouped(cursor, WAITING, ids)
        in_flight = _grouped(cursor, IN_FLIGHT, ids)
    return [_body(flow, waiting.get(flow.id, 0), in_flight.get(flow.id, 0)) for flow in flows]


def _grouped(cursor, sql: str, ids: list[int]) -> dict[int, int]:
    cursor.execute(sql.format(placeholders=", ".join(["%s"] * len(ids))), ids)
    return {flow_id: int(count) for flow_id, count in cursor.fetchall()}


def _body(flow: Flow, waiting: int, in_flight: int) -> dict:
    return {
        "key": flow.key,
        "parallelism": flow.parallelism,
        "rate": flow.rate,
        "period_seconds": flow.period_seconds,
        "breaker_failures": flow.breaker_failures,
        "breaker_cooldown_seconds": flow.breaker_cooldown_seconds,
        "paused": flow.paused,
        "circuit": {
            "state": flow.circuit_state,
            "failures": flow.failures,
            "opened_at": flow.opened_at,
            "retry_at": flow.retry_at,
        },
        "waiting": waiting,
        "in_flight": in_flight,
        "created_at": flow.created_at,
        "updated_at": flow.updated_at,
    }
