"""Scenarios 7 and 8: endpoints that fail, push back, stall or trickle."""

from __future__ import annotations

from datetime import timedelta

from bench.reliability.endpoint import RETRY_AFTER_SECONDS
from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import Timeline, due_in, start_all
from bench.reliability.workload import expected_runs, one_off
from jobs.models import Job, JobStatus

FAILING_SECONDS = 120
BUSY_SECONDS = 20
# Retry-After is 3 s; the backoff would be a minute. A retry between these is the header's.
RETRY_AFTER_WINDOW = (RETRY_AFTER_SECONDS - 0.5, RETRY_AFTER_SECONDS + 10)


def failing_endpoint(ctx: Context, *, failing: float = FAILING_SECONDS) -> Outcome:
    """500 for two minutes, then 200; 429 with Retry-After for 20 s, then 200."""
    start_all(ctx)
    ctx.endpoint.switch("flaky", True)
    ctx.endpoint.switch("busy", True)
    due = due_in(5)
    spread = failing / 2
    bodies = one_off(
        ctx.endpoint,
        "flaky",
        "retried",
        ctx.n(5_000),
        due,
        spread=spread,
        max_attempts=8,
        backoff_base_seconds=5,
    )
    bodies += one_off(
        ctx.endpoint,
        "flaky",
        "fewtries",
        ctx.n(500),
        due,
        spread=spread,
        max_attempts=2,
        backoff_base_seconds=5,
    )
    bodies += one_off(
        ctx.endpoint,
        "busy",
        "pushedback",
        ctx.n(1_000),
        due,
        max_attempts=10,
        backoff_base_seconds=60,
    )
    expected = expected_runs(ctx.create(bodies), due + timedelta(days=1))
    faults = [ctx.faults.begin("endpoint answers 500"), ctx.faults.begin("endpoint answers 429")]

    def recover(behaviour: str, fault) -> None:
        ctx.endpoint.switch(behaviour, False)
        ctx.faults.finish(fault)

    timeline = Timeline(
        [
            (BUSY_SECONDS, lambda: recover("busy", faults[1])),
            (failing, lambda: recover("flaky", faults[0])),
        ]
    )
    ctx.wait_for(expected, timeout=failing + 600, during=timeline)
    outcome = ctx.outcome(expected)
    gaps = _retry_gaps(outcome, "pushedback")
    honoured = sum(RETRY_AFTER_WINDOW[0] <= g <= RETRY_AFTER_WINDOW[1] for g in gaps)
    dead = Job.objects.filter(status=JobStatus.DEAD)
    outcome.notes["retries after a 429"] = len(gaps)
    outcome.notes["of which after Retry-After (3 s, not the 60 s backoff)"] = honoured
    outcome.checks["nothing dead that had attempts left"] = not [
        1 for attempt, most in dead.values_list("attempt", "max_attempts") if attempt < most
    ]
    outcome.checks["no job with 8 attempts died"] = not any(
        run[0].startswith("retried.") for run in outcome.seen.dead
    )
    outcome.checks["Retry-After honoured on 429"] = bool(gaps) and honoured == len(gaps)
    return outcome


def stalls_and_trickles(ctx: Context) -> Outcome:
    """Endpoints that accept and never answer, or answer at 100 bytes/s, past the timeout,
    beside ones that answer slowly within it and ones that answer at once."""
    start_all(ctx)
    due = due_in(5)
    doomed = {"timeout_seconds": 2, "max_attempts": 2, "backoff_base_seconds": 1}
    bodies = one_off(ctx.endpoint, "stall", "stall", ctx.n(1_000), due, spread=20, **doomed)
    bodies += one_off(ctx.endpoint, "trickle", "trickle", ctx.n(1_000), due, spread=20, **doomed)
    bodies += one_off(
        ctx.endpoint, "slow", "slow", ctx.n(2_000), due, spread=20, timeout_seconds=10
    )
    bodies += one_off(ctx.endpoint, "ok", "ok", ctx.n(6_000), due, spread=20)
    expected = expected_runs(ctx.create(bodies), due + timedelta(days=1))
    ctx.wait_for(expected, timeout=600)
    outcome = ctx.outcome(expected)
    dead_groups = {run[0].split(".")[0] for run in outcome.seen.dead}
    outcome.checks["only stalled and trickled calls died"] = dead_groups <= {"stall", "trickle"}
    outcome.checks["every stalled and trickled call died of its timeout"] = all(
        "timed out" in d.error for d in outcome.seen.dead.values()
    )
    return outcome


def _retry_gaps(outcome: Outcome, group: str) -> list[float]:
    """Seconds between an answer and the next attempt of the same job, for `group`."""
    gaps = []
    for calls in outcome.seen.arrivals.values():
        if not calls or not calls[0].label.startswith(f"{group}."):
            continue
        ordered = sorted(calls, key=lambda a: a.attempt)
        gaps += [b.at - a.at for a, b in zip(ordered, ordered[1:], strict=False) if a.status == 429]
    return gaps
