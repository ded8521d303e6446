"""Queue use cases of the executor: claim, record results, hand back unfired claims.

Each runs in one short transaction; the executor calls them from its database round.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.utils import OperationalError

from flows.breaker import count_calls
from flows.circuit_alert import circuit_alerts
from flows.gate import Candidate, Gated, gate
from flows.recent_stops import flows_stopped_since
from flows.release import release_waiting
from jobs import queue_sql as q
from jobs import wake_index
from jobs.callbacks.claimed import claimed_callbacks
from jobs.callbacks.enqueue import enqueue
from jobs.callbacks.produce import make_callbacks
from jobs.fair_share import interleave, plan_asks
from jobs.models import CALLBACK_PRIORITY, JobStatus
from jobs.queue_engine import queue_engine
from jobs.statement_size import check_fits
from jobs.waiting import release_jobs
from scheduler_site.sqltools import datetime_from_db, datetime_param, uuid_param, uuid_text
from tasks.critical_grant import demote_ungranted
from tasks.models import CRITICAL_PRIORITY
from tasks.recent_stops import tasks_stopped_since
from tasks.tenants import inactive_tenant_ids

DEADLOCK_CODES = {1213, 1205}


@dataclass(slots=True)
class ClaimedJob:
    key: str  # the id as the database spells it
    id: str  # canonical UUID text: the Idempotency-Key
    tenant_id: str
    task_id: str
    scheduled_at: datetime
    attempt: int
    max_attempts: int
    next_attempt_at: datetime
    timeout_seconds: int
    backoff_base_seconds: int
    priority: int
    url: str
    method: str
    headers: dict
    body: str
    secret_ref: str | None
    signing_secret: str
    task_status: str
    lease_expires_at: datetime
    # The secret before a rotation, while calls are still signed with it as well.
    previous_signing_secret: str | None = None
    run_now: bool = False  # asked for by hand: it goes out even while its task is paused
    # Its task buffers one run behind it (overlap buffer_one): its end may release that run.
    buffers: bool = False
    # Its task or tenant has a callback URL: its end makes a callback (jobs/callbacks/).
    calls_back: bool = False
    # The flow (flows/) the claim let its call out through: its result counts for the
    # flow's circuit, and its flow's pause or opening gives it back unfired.
    flow_id: int | None = None
    # Its flow's (rate, period_seconds) when the flow has a rate: the executor paces the
    # flow's calls by when it really sends them too (execution/flow_pace.py).
    flow_pace: tuple[int, int] | None = None


@dataclass(slots=True)
class JobResult:
    key: str
    attempt: int
    status: str
    next_attempt_at: datetime | None = None
    finished_at: datetime | None = None
    http_status: int | None = None
    error: str | None = None
    response_body: str | None = None
    duration_ms: int | None = None
    started_at: datetime | None = None  # of the attempt; None when there was none (a cancel)
    releases: bool = False  # a finished run of a buffer_one task: its waiting run may go
    calls_back: bool = False  # a finished run whose task or tenant has a callback URL
    # The start of the reply as its bytes, kept only for a run that calls back (its
    # callback carries them as text or base64); never written to the jobs table.
    response_raw: bytes | None = None
    flow_id: int | None = None  # the flow its call went through (flows/breaker.py)
    # Whether the destination failed the call (a flow's breaker counts it); None: no call.
    flow_failed: bool | None = None

    def as_row(self) -> list:
        return [
            self.key,
            self.attempt,
            self.status,
            datetime_param(self.next_attempt_at) if self.next_attempt_at else None,
            datetime_param(self.finished_at) if self.finished_at else None,
            self.http_status,
            self.error,
            self.response_body,
            self.duration_ms,
            datetime_param(self.started_at) if self.started_at else None,
        ]


HandBack = tuple[str, int, str]  # (key, attempt, pending or held)


@dataclass
class ClaimBatch:
    jobs: list[ClaimedJob] = field(default_factory=list)
    saturated_tenants: frozenset[str] = frozenset()
    # Candidates a limit held back: left pending by a tenant's, or parked by a flow's.
    held_back: int = 0
    # Tenants an operator stopped (canonical ids): none of their jobs is claimed or fired.
    inactive_tenants: frozenset[str] = frozenset()
    # Tasks paused or deleted since the round's `stopped_since` (task id -> status): the
    # jobs of theirs claimed earlier are not to be called.
    stopped_tasks: dict[str, str] = field(default_factory=dict)
    # When a job its flow holds back (flows/) may next have room without a call ending:
    # the executor claims again then rather than at its next poll.
    flow_wake_at: datetime | None = None
    # Flows paused or opened since `stopped_since` (ids), read only when the executor holds
    # jobs of flows: their jobs claimed earlier go back unfired.
    stopped_flows: frozenset[int] = frozenset()


def retrying_deadlocks(operation, attempts: int = 5):
    """Run a write transaction again when the database picked it as a deadlock victim."""
    for attempt in range(attempts):
        try:
            return operation()
        except OperationalError as exc:
            code = exc.args[0] if exc.args else None
            if code not in DEADLOCK_CODES or attempt == attempts - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def in_write_transaction(work):
    """Run `work(cursor)` in one transaction, again if it was picked as a deadlock victim."""

    def attempt():
        with transaction.atomic(), connection.cursor() as cursor:
            return work(cursor)

    return retrying_deadlocks(attempt)


# --- claim -------------------------------------------------------------------------------------


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
        lambda cursor: _claim_with(
            cursor, worker_id, critical_limit, normal_limit, lookahead_seconds, skip_tenants
        )
    )


def _claim_with(cursor, worker_id, critical_limit, normal_limit, lookahead_seconds, skip_tenants):
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


# --- results and hand-backs --------------------------------------------------------------------


def record_results(*, worker_id: str, results: list[JobResult]) -> int:
    """Write a batch of results, each fenced by (running, worker, attempt).

    Returns how many rows took their result; the others were stale and are dropped.
    """
    if not results:
        return 0
    return in_write_transaction(lambda cursor: _record_with(cursor, worker_id, results))


def _record_with(cursor, worker_id: str, results: list[JobResult]) -> int:
    rows, engine = json.dumps([result.as_row() for result in results]), queue_engine()
    check_fits(engine, cursor, rows)
    fenced = engine.record_results(cursor, rows, worker_id)
    releasing = [result.key for result in results if result.releases]
    if releasing:  # only buffer_one tasks' runs: nothing is asked of the rest's results
        release_jobs(cursor, releasing)
    # Only the rows this statement wrote: a batch sent again after a commit the round never
    # heard of is fenced off, and must not call back a second time (with a new webhook-id).
    _count_flow_calls(results, fenced)
    calling = _calling_back(results, fenced)
    if calling:  # likewise only runs with a callback URL: made where they are fenced
        make_callbacks(
            calling,
            {key: r.response_raw for key, r in calling.items() if r.response_raw is not None},
            worker_id=worker_id,
        )
    return len(fenced)


def _count_flow_calls(results: list[JobResult], fenced: list) -> None:
    """The calls of flows that ended, as their circuits count them (flows/breaker.py)."""
    through = [result for result in results if result.flow_id is not None]
    if not through:
        return
    written = {uuid_text(key) for key in fenced}
    ended = [(uuid_text(r.key), r.flow_id, r.flow_failed) for r in through]
    ended = [call for call in ended if call[0] in written]
    now = datetime.now(UTC)
    opened = count_calls(ended, now)
    if opened:  # the tenant's failure alert: one per circuit opened from closed
        enqueue(circuit_alerts(opened, ended, now))


def _calling_back(results: list[JobResult], fenced: list) -> dict[str, JobResult]:
    """The results that make a callback, by job id: only those the statement wrote. The ids
    are spelled out only when some result calls back (most batches have none)."""
    wanted = [result for result in results if result.calls_back]
    if not wanted:
        return {}
    written = {uuid_text(key) for key in fenced}
    return {uuid_text(r.key): r for r in wanted if uuid_text(r.key) in written}


def exchange(
    *,
    worker_id: str,
    results: list[JobResult],
    critical_limit: int,
    normal_limit: int,
    lookahead_seconds: float,
    skip_tenants: frozenset[str] = frozenset(),
    hand_backs: list[HandBack] = (),
    enrich: Callable[[list[ClaimedJob]], list] | None = None,
    stopped_since: datetime | None = None,
    watch_flows: bool = False,
) -> tuple[int, ClaimBatch]:
    """One round of an executor in one transaction (one commit, one log flush): write its
    results, hand back what it will not fire, claim new jobs and `enrich` them (e.g. with
    their secrets), and, given `stopped_since`, read the tasks paused or deleted since then
    (and, with `watch_flows`, the flows paused or opened since then).
    If any step fails, none of it happened and the caller still holds its results."""

    def work(cursor) -> tuple[int, ClaimBatch]:
        applied = _record_with(cursor, worker_id, results) if results else 0
        if hand_backs:
            _hand_back_with(cursor, worker_id, list(hand_backs))
        batch = ClaimBatch()
        if critical_limit > 0:
            batch = _claim_with(
                cursor, worker_id, critical_limit, normal_limit, lookahead_seconds, skip_tenants
            )
        if enrich is not None:
            batch.jobs = enrich(batch.jobs)
        if stopped_since is not None:  # after the claim: it sees every change the claim saw
            batch.stopped_tasks = tasks_stopped_since(since=stopped_since)
            if watch_flows:  # only while it holds jobs of flows: no read for the others
                batch.stopped_flows = flows_stopped_since(since=stopped_since)
            if critical_limit <= 0:  # no claim read the stopped tenants: the jobs held need it
                batch.inactive_tenants = frozenset(str(t) for t in inactive_tenant_ids())
        return applied, batch

    return in_write_transaction(work)


def hand_back(*, worker_id: str, jobs: list[HandBack]) -> int:
    """Return claimed jobs that were never fired to pending (or held), charging no attempt."""
    if not jobs:
        return 0
    return in_write_transaction(lambda cursor: _hand_back_with(cursor, worker_id, jobs))


def _hand_back_with(cursor, worker_id: str, jobs: list[HandBack]) -> int:
    rows = json.dumps([list(job) for job in jobs])
    return queue_engine().hand_back(cursor, rows, worker_id)


# --- the rules of a result ---------------------------------------------------------------------

MAX_BACKOFF_SECONDS = 86400


def retry_delay(*, backoff_base_seconds: int, attempt: int, retry_after: float | None) -> float:
    """backoff_base * 2^(attempt-1), capped at one day; a server's Retry-After wins within
    the cap."""
    if retry_after is not None:
        return min(max(retry_after, 0.0), MAX_BACKOFF_SECONDS)
    exponent = min(attempt - 1, 32)
    return min(backoff_base_seconds * 2**exponent, MAX_BACKOFF_SECONDS)


def outcome(
    job: ClaimedJob,
    *,
    succeeded: bool,
    now: datetime,
    retry_after: float | None = None,
    **details,
) -> JobResult:
    """The result row of one attempt: succeeded, pending for a retry, or dead."""
    if succeeded or job.attempt >= job.max_attempts:
        status = JobStatus.SUCCEEDED if succeeded else JobStatus.DEAD
        return JobResult(
            job.key,
            job.attempt,
            status,
            finished_at=now,
            releases=job.buffers,
            calls_back=job.calls_back,
            flow_id=job.flow_id,
            **details,
        )
    delay = retry_delay(
        backoff_base_seconds=job.backoff_base_seconds, attempt=job.attempt, retry_after=retry_after
    )
    return JobResult(
        job.key,
        job.attempt,
        JobStatus.PENDING,
        next_attempt_at=now + timedelta(seconds=delay),
        flow_id=job.flow_id,
        **details,
    )


def reconcile_expired_leases(*, batch_size: int = 1000) -> int:
    """Return running jobs whose lease expired: pending while attempts remain, else dead
    (which lets a buffered run of its task go)."""

    def work(cursor) -> int:
        settled = queue_engine().reconcile(cursor, batch_size)
        if settled:
            release_jobs(cursor, settled)
            make_callbacks(uuid_text(key) for key in settled)
        return len(settled)

    return in_write_transaction(work)
