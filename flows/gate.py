"""The claim's gate: of the jobs a claim chose, those whose flow has room go out (counted
as its calls), the others are parked in `flow_waits` (status `throttled`), uncharged and
with their due time, so the claim's next batch is free for everyone else's jobs.

Only the jobs of tenants that use flows are looked at (the claim reads which they are
with the tenants' budgets); a claim of other tenants' jobs costs nothing here.
"""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime

from flows.counts import rooms_for
from flows.keys import flow_key_of
from flows.models import CircuitState, Flow, FlowStart
from flows.rows import insert_waits, replace_calls
from scheduler_site.sqltools import datetime_from_db, datetime_param, uuid_text

JOB_FLOWS = """
SELECT j.id, j.tenant_id, j.attempt, j.next_attempt_at, t.flow_key, t.url
FROM jobs AS j JOIN tasks AS t ON t.id = j.task_id
WHERE j.id IN ({placeholders})
"""

PARK = """
UPDATE jobs SET status = 'throttled', updated_at = %s
WHERE id IN ({placeholders}) AND status = 'pending'
"""


@dataclass
class Candidate:
    key: object  # the id as the database spells it
    tenant: object
    priority: int


@dataclass
class Gated:
    admitted: list = field(default_factory=list)  # keys, in the claim's order
    flow_of: dict[str, int] = field(default_factory=dict)  # job id -> flow let out through
    wake_at: datetime | None = None  # when a parked job may next have room
    parked: int = 0  # jobs parked: the claim's batch held fewer than it chose
    deferred: int = 0  # jobs of flows another transaction held: left pending
    paces: dict[int, tuple[int, int]] = field(default_factory=dict)  # rate flow -> (rate, period)


def gate(
    cursor, chosen: list[Candidate], *, flow_tenants: dict[str, bool], skip_priority: int
) -> Gated:
    """Split `chosen` (locked, pending) into the jobs to mark running and the jobs parked.
    `flow_tenants`: the tenants that use flows (canonical id -> per-host flows on)."""
    subjects = [
        c for c in chosen if c.priority != skip_priority and uuid_text(c.tenant) in flow_tenants
    ]
    if not subjects:
        return Gated([c.key for c in chosen])
    details = _job_flows(cursor, [c.key for c in subjects], flow_tenants)
    # A flow another claim or result write holds is not waited for (no lock wait, no
    # deadlock with a round that locked flows for its results first): its jobs are left
    # pending for the next claim.
    flows = lock_flows({(tenant, name) for tenant, name, _, _ in details.values()}, skip=True)
    # Read after the locks: a claim that waited for another's commit must not count its
    # rate's window, nor date its starts, from before the wait (its calls leave after it).
    now = datetime.now(UTC)
    rooms = rooms_for(cursor, flows.values(), now)
    gated, parked, calls, starts = Gated(), [], [], Counter()
    for candidate in chosen:
        detail = details.get(uuid_text(candidate.key))
        if detail is None:
            gated.admitted.append(candidate.key)
            continue
        tenant, name, attempt, due = detail
        flow = flows.get((tenant, name))
        if flow is None:  # held by another (or deleted meanwhile): left pending for the
            gated.deferred += 1  # next claim, which comes at once: no lock is waited for
            continue
        room = rooms[flow.id]
        if room.admits(due):
            gated.admitted.append(candidate.key)
            gated.flow_of[uuid_text(candidate.key)] = flow.id
            calls.append((candidate.key, flow.id, attempt + 1))
            starts[flow.id] += flow.rate is not None
            if flow.rate is not None:
                gated.paces[flow.id] = (flow.rate, flow.period_seconds)
        else:
            parked.append((candidate, flow, due))
    _park(cursor, parked, now)
    gated.wake_at = _look_again(parked, rooms, now)
    gated.parked = len(parked)
    _let_out(cursor, calls, starts, rooms, now)
    return gated


def lock_flows(
    needs: set[tuple[uuid.UUID, str]], *, skip: bool = False
) -> dict[tuple[uuid.UUID, str], Flow]:
    """The flows named (tenant, key), made with no limits and the default breaker when
    first used, locked in id order (every locker takes them in that order); with `skip`,
    those locked by another transaction are left out."""
    ids = _flow_ids(needs)
    missing = needs - set(ids)
    if missing:
        Flow.objects.bulk_create(
            [Flow(tenant_id=tenant, key=name) for tenant, name in missing], ignore_conflicts=True
        )
        ids = _flow_ids(needs)
    # Locked through the primary key, so in id order as the result write locks them: read
    # through the (tenant, key) index, the locks would come in that index's order.
    locking = Flow.objects.select_for_update(skip_locked=skip)
    locked = locking.filter(id__in=sorted(ids.values())).order_by("id")
    return {(f.tenant_id, f.key): f for f in locked}


def _flow_ids(needs: set[tuple[uuid.UUID, str]]) -> dict[tuple[uuid.UUID, str], int]:
    tenants, names = {t for t, _ in needs}, {n for _, n in needs}
    named = Flow.objects.filter(tenant_id__in=tenants, key__in=names)
    rows = named.values_list("tenant_id", "key", "id")
    return {(t, n): i for t, n, i in rows if (t, n) in needs}


def _job_flows(cursor, keys: list, tenants: dict[str, bool]) -> dict[str, tuple]:
    """Job id -> (tenant, flow key, attempt, due) for the jobs in a flow."""
    cursor.execute(JOB_FLOWS.format(placeholders=", ".join(["%s"] * len(keys))), keys)
    found = {}
    for key, tenant, attempt, due, flow_key, url in cursor.fetchall():
        name = flow_key_of(flow_key, url, tenants.get(uuid_text(tenant), False))
        if name is not None:
            found[uuid_text(key)] = (
                uuid.UUID(uuid_text(tenant)),
                name,
                attempt,
                datetime_from_db(due),
            )
    return found


def _wake_of(room, due: datetime, now: datetime) -> datetime | None:
    if due > now and (room.flow.rate is not None or room.probe_next()):
        return due  # parked only for not being due yet
    return room.reopens_at()


def _park(cursor, parked: list, now: datetime) -> None:
    if not parked:
        return
    keys = [candidate.key for candidate, _, _ in parked]
    cursor.execute(
        PARK.format(placeholders=", ".join(["%s"] * len(keys))), [datetime_param(now), *keys]
    )
    insert_waits(
        cursor, [(flow.id, c.priority, datetime_param(due), c.key) for c, flow, due in parked]
    )


def _look_again(parked: list, rooms: dict, now: datetime) -> datetime | None:
    """The parked flows' next look for the release (flows/release.py): the earliest time one
    of their parked jobs may have room. None (a call's end gives room) leaves it as it is.
    Returns the earliest of them all (when the executor should claim again)."""
    wakes: dict[int, datetime] = {}
    for _, flow, due in parked:
        wake = _wake_of(rooms[flow.id], due, now)
        if wake is not None:
            wakes[flow.id] = min(wake, wakes.get(flow.id, wake))
    for flow_id, wake in wakes.items():
        flow = rooms[flow_id].flow
        if flow.release_at is None or wake < flow.release_at:
            flow.release_at = wake
            Flow.objects.filter(id=flow_id).update(release_at=wake)
    return min(wakes.values(), default=None)


def _let_out(cursor, calls: list[tuple], starts: Counter, rooms: dict, now: datetime) -> None:
    """The calls let out (job id as the database spells it, flow, attempt), each rate flow's
    starts (the reconciler removes those past their window), and probes made half-open."""
    replace_calls(cursor, calls)
    FlowStart.objects.bulk_create(
        [
            FlowStart(flow_id=flow_id, at=now, calls=count)
            for flow_id, count in starts.items()
            if count
        ]
    )
    for room in rooms.values():
        if room.probing and room.flow.circuit_state == CircuitState.OPEN:
            room.flow.circuit_state = CircuitState.HALF_OPEN
            room.flow.save(update_fields=["circuit_state", "updated_at"])
