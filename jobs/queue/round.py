"""One round of an executor in one transaction: its results, its hand-backs, its claim."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from flows.recent_stops import flows_stopped_since
from jobs.queue.claim import claim_with
from jobs.queue.hand_backs import hand_back_with
from jobs.queue.results import record_with
from jobs.queue.rows import ClaimBatch, ClaimedJob, HandBack, JobResult
from jobs.queue.transactions import in_write_transaction
from tasks.recent_stops import tasks_stopped_since
from tasks.tenants import inactive_tenant_ids


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
        applied = record_with(cursor, worker_id, results) if results else 0
        if hand_backs:
            hand_back_with(cursor, worker_id, list(hand_backs))
        batch = ClaimBatch()
        if critical_limit > 0:
            batch = claim_with(
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
