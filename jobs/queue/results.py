"""The results of a round: each fenced by (running, worker, attempt), with what they make in
the same transaction (the attempts log, the per-minute counts, a buffered run's release,
callbacks, the flows' circuits)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flows.breaker import count_calls
from flows.circuit_alert import circuit_alerts
from jobs.callbacks.enqueue import enqueue
from jobs.callbacks.produce import make_callbacks
from jobs.queue.engine import queue_engine
from jobs.queue.minute_counts import add_minute_counts
from jobs.queue.rows import JobResult
from jobs.queue.transactions import in_write_transaction
from jobs.statement_size import check_fits
from jobs.waiting import release_jobs
from scheduler_site.sqltools import uuid_text


def record_results(*, worker_id: str, results: list[JobResult]) -> int:
    """Write a batch of results, each fenced by (running, worker, attempt).

    Returns how many rows took their result; the others were stale and are dropped.
    """
    if not results:
        return 0
    return in_write_transaction(lambda cursor: record_with(cursor, worker_id, results))


def record_with(cursor, worker_id: str, results: list[JobResult]) -> int:
    rows, engine = json.dumps([result.as_row() for result in results]), queue_engine()
    check_fits(engine, cursor, rows)
    written = engine.record_results(cursor, rows, worker_id)
    add_minute_counts(cursor, engine, worker_id, results, written)
    fenced = [row[0] for row in written]
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
