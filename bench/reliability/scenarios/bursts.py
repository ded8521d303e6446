"""Scenarios 1 and 10: many one-off jobs due in the same second."""

from __future__ import annotations

from datetime import timedelta

from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import due_in, start_all
from bench.reliability.workload import expected_runs, one_off

LEAD_SECONDS = 45  # creation through the API must end before the burst's second
ONE_SECOND = timedelta(seconds=1)


def burst(ctx: Context) -> Outcome:
    """30,000 one-off jobs due in the same second, plus 300 at priority 0."""
    start_all(ctx)
    due = due_in(LEAD_SECONDS * max(ctx.scale, 0.3))
    bodies = one_off(ctx.endpoint, "ok", "burst", ctx.n(30_000), due)
    bodies += one_off(ctx.endpoint, "ok", "critical", ctx.n(300), due, priority=0)
    tasks = ctx.create(bodies)
    expected = expected_runs(tasks, due + ONE_SECOND)
    ctx.wait_for(expected, timeout=LEAD_SECONDS + 300)
    outcome = ctx.outcome(expected)
    critical = outcome.as_json()["start_delay_s"]["by_priority"].get("0", {})
    outcome.checks["priority 0 p99 under 1 s"] = critical.get("p99", 99) < 1.0
    return outcome


def noisy_neighbour(ctx: Context) -> Outcome:
    """A noisy tenant with 20,000 jobs due now beside a quiet one with 100."""
    start_all(ctx)
    due = due_in(LEAD_SECONDS * max(ctx.scale, 0.3))
    tasks = ctx.create(one_off(ctx.endpoint, "ok", "noisy", ctx.n(20_000), due), "noisy")
    tasks += ctx.create(one_off(ctx.endpoint, "ok", "quiet", 100, due), "quiet")
    expected = expected_runs(tasks, due + ONE_SECOND)
    ctx.wait_for(expected, timeout=LEAD_SECONDS + 300)
    outcome = ctx.outcome(expected)
    groups = outcome.as_json()["start_delay_s"]["by_group"]
    quiet, noisy = groups["quiet"].get("p99", 99), groups["noisy"].get("p50", 0)
    # Queued behind the noisy backlog, the quiet jobs would start as late as its median.
    outcome.checks["quiet tenant's p99 within 1 s of the noisy one's p50"] = quiet <= noisy + 1
    outcome.notes["quiet_p99_s"], outcome.notes["noisy_p50_s"] = quiet, noisy
    return outcome
