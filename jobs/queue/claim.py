"""The claim: due jobs (up to one lookahead ahead), by priority, tenants taking turns, within
each tenant's concurrency limit, through the flows' gate (flows/), marked running with
`attempt` one higher: the fencing token every later write of the job is checked against."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.conf import settings

from flows.gate import Candidate, Gated, gate
from flows.release import release_waiting
from jobs import wake_index
from jobs.callbacks.claimed import claimed_callbacks
from jobs.fair_share import interleave, plan_asks
from jobs.models import CALLBACK_PRIORITY, JobStatus
from jobs.queue import sql as q
from jobs.queue.engine import queue_engine
from jobs.queue.rows import ClaimBatch, ClaimedJob
from jobs.queue.transactions import in_write_transaction
from scheduler_site.sqltools import datetime_from_db, uuid_param, uuid_text
from tasks.critical_grant import demote_ungranted
from tasks.models import CRITICAL_PRIORITY
from tasks.tenants import inactive_tenant_ids


def claim_jobs(
    *,
    worker_id: str,
    critical_limit: int,
    normal_limit: int,
    lookahead_seconds: float,
    skip_tenants: frozenset[str] = frozenset(),
) -> ClaimBatch:
    """Claim due jobs (up to one lookahead ahead): priority 0 up to `critical_limit`, the
    others up to `normal_limit`, within every tenant's concurrency limit."""
    if critical_limit <= 0:
        return ClaimBatch()
    return in_write_transaction(
        lambda cursor: claim_with(
            cursor, worker_id, critical_limit, normal_limit, lookahead_seconds, skip_tenants
        )
    )


def claim_with(cursor, worker_id, critical_limit, normal_limit, lookahead_seconds, skip_tenants):
    inactive = inactive_tenant_ids()
    skip = frozenset(skip_tenants) | {uuid_param(tenant) for tenant in inactive}
    stopped = frozenset(str(tenant) for tenant in inactive)
    now, engine = datetime.now(UTC), queue_engine()
    # Jobs their flows held back go back first, in their place, when their flow has room.
    wake = release_waiting(
        cursor, now=now, lookahead_seconds=lookahead_seconds, limit=critical_limit, lock=engine.lock
    )
    # A look the release left due (a flow another transaction held, more flows than it
    # looks at in one claim, a flow's room beyond its limit): the round goes again at once.
    again = int(wake is not None and wake <= now)
    candidates = _candidates(cursor, critical_limit, normal_limit, lookahead_seconds, skip)
    if not candidates:
        return ClaimBatch(held_back=again, inactive_tenants=stopped, flow_wake_at=wake)
    budgets = _tenant_budgets(cursor, {row[1] for row in candidates} | set(skip_tenants))
    chosen, saturated, held_back = _choose(candidates, budgets, critical_limit, normal_limit)
    held_back += again
    if not chosen:
        return ClaimBatch([], saturated, held_back, stopped, flow_wake_at=wake)
    gated = _gate(cursor, candidates, chosen, budgets.flow_tenants)
    wake = min(filter(None, (wake, gated.wake_at)), default=None)
    # Parked jobs left the pending range: the round claims again at once, so jobs behind
    # a full flow's are not kept waiting for the next poll (no head-of-line blocking).
    held_back += gated.parked + gated.deferred
    if not gated.admitted:
        return ClaimBatch([], saturated, held_back, stopped, flow_wake_at=wake)
    keys = json.dumps(gated.admitted)
    engine.mark_running(cursor, keys, worker_id, settings.LEASE_MARGIN_SECONDS)
    rows = list(engine.claimed_details(cursor, keys, worker_id))
    if len(rows) < len(gated.admitted):  # callbacks have no task row: their targets are elsewhere
        rows += claimed_callbacks(cursor, keys, worker_id)
    jobs = [_claimed(row) for row in rows]
    for job in jobs:
        job.flow_id = gated.flow_of.get(job.id)
        job.flow_pace = gated.paces.get(job.flow_id)
    jobs.sort(key=lambda job: job.next_attempt_at)
    return ClaimBatch(jobs, saturated, held_back, stopped, flow_wake_at=wake)


def _gate(cursor, candidates, chosen, flow_tenants: dict[str, bool]):
    """The chosen jobs whose flows have room (flows/gate.py); the others are parked."""
    if not flow_tenants:
        return Gated(list(chosen))
    of = {key: (tenant, priority) for key, tenant, priority in candidates}
    picked = [Candidate(key, *of[key]) for key in chosen]
    return gate(cursor, picked, flow_tenants=flow_tenants, skip_priority=CALLBACK_PRIORITY)


def _candidates(cursor, critical_limit, normal_limit, lookahead_seconds, skip_tenants):
    """Due jobs to claim, in claim order: by priority, tenants taking turns (fair_share)."""
    engine = queue_engine()
    until = engine.horizon(lookahead_seconds)
    groups = demote_ungranted(cursor, wake_index.due_groups(cursor, JobStatus.PENDING, until))
    slots = {
        p: critical_limit if p == CRITICAL_PRIORITY else normal_limit
        for p in range(CALLBACK_PRIORITY + 1)
    }
    asks = plan_asks(groups, slots, frozenset(skip_tenants))
    if not asks:
        return []
    parts, params = [], []
    for index, ask in enumerate(asks):
        sql, part_params = wake_index.part(
            JobStatus.PENDING, ask.priority, ask.tenant, ask.count, until, engine.lock, index
        )
        parts.append(sql)
        params += part_params
    rows = wake_index.read_rows(cursor, " UNION ALL ".join(parts), params)
    return [(key, tenant, priority) for key, tenant, priority, _ in interleave(rows, asks)]


@dataclass(slots=True)
class Budgets:
    """Jobs each tenant may still start this claim: runs, and callbacks apart (their lane)."""

    runs: dict[str, int]
    callbacks: dict[str, int]
    # The tenants whose jobs may be in a flow (canonical id -> per-host flows on).
    flow_tenants: dict[str, bool] = field(default_factory=dict)

    def of(self, priority: int) -> dict[str, int]:
        return self.callbacks if priority == CALLBACK_PRIORITY else self.runs


def _tenant_budgets(cursor, tenant_ids: set[str]) -> Budgets:
    ids = sorted(tenant_ids)
    cursor.execute(q.TENANT_BUDGETS.format(placeholders=", ".join(["%s"] * len(ids))), ids * 2)
    rows = cursor.fetchall()
    return Budgets(
        runs={str(row[0]): row[1] - int(row[2]) for row in rows},
        callbacks={str(row[0]): row[1] - int(row[3]) for row in rows},
        flow_tenants={uuid_text(row[0]): bool(row[5]) for row in rows if row[4]},
    )


def _choose(candidates, budgets: Budgets, critical_limit, normal_limit):
    chosen, saturated, held_back = [], set(), 0
    normal_taken = 0
    for key, tenant_id, priority in candidates:
        if len(chosen) >= critical_limit:
            break  # every free slot is taken
        if priority != CRITICAL_PRIORITY and normal_taken >= normal_limit:
            continue
        budget = budgets.of(priority)
        if budget.get(tenant_id, 0) <= 0:
            # A tenant out of callback budget is not saturated: its runs may still start
            # (and a hold that does not skip the tenant next round must not ask for one).
            if priority != CALLBACK_PRIORITY:
                saturated.add(tenant_id)
                held_back += 1
            continue
        budget[tenant_id] -= 1
        normal_taken += priority != CRITICAL_PRIORITY
        chosen.append(key)
    saturated |= {tenant for tenant, left in budgets.runs.items() if left <= 0}
    return chosen, frozenset(saturated), held_back


def _claimed(row) -> ClaimedJob:
    headers = row[12]
    if isinstance(headers, str):
        headers = json.loads(headers)
    return ClaimedJob(
        key=row[0],
        id=uuid_text(row[0]),
        tenant_id=uuid_text(row[1]),
        task_id=uuid_text(row[2]),
        scheduled_at=datetime_from_db(row[3]),
        attempt=row[4],
        max_attempts=row[5],
        next_attempt_at=datetime_from_db(row[6]),
        timeout_seconds=row[7],
        backoff_base_seconds=row[8],
        priority=row[9],
        url=row[10],
        method=row[11],
        headers=headers or {},
        body=row[13] or "",
        secret_ref=row[14],
        signing_secret=row[15],
        task_status=row[16],
        lease_expires_at=datetime_from_db(row[17]),
        previous_signing_secret=_still_signing(row[18], datetime_from_db(row[19])),
        run_now=bool(row[20]),
        buffers=bool(row[21]),
        calls_back=bool(row[22]),
    )


def _still_signing(previous: str | None, until: datetime | None) -> str | None:
    if previous and until is not None and until > datetime.now(UTC):
        return previous
    return None
