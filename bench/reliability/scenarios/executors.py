"""Scenarios 3 and 9: an executor killed (SIGKILL) or frozen (SIGSTOP) with hundreds of
calls in flight to an endpoint that takes about 2.5 s to answer."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime, timedelta

from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import (
    Timeline,
    count_jobs,
    due_in,
    handed_back_dead,
    reconciled,
)
from bench.reliability.workload import expected_runs, one_off

SLOW_TIMEOUT = 10  # seconds; the slow location answers in about 2.5 s
IN_FLIGHT_WAIT = 60.0


def slow_jobs(ctx: Context, count: int, lead: float = 5) -> dict:
    due = due_in(lead)
    bodies = one_off(ctx.endpoint, "slow", "slow", count, due, timeout_seconds=SLOW_TIMEOUT)
    return expected_runs(ctx.create(bodies), due + timedelta(days=1))


def wait_in_flight(worker: str, count: int) -> int:
    """Wait (bounded) until `worker` holds `count` running jobs whose second has passed:
    calls in flight (jobs claimed ahead and still on their timers are not counted)."""
    deadline = time.monotonic() + IN_FLIGHT_WAIT
    held = 0
    while time.monotonic() < deadline:
        fired_before = datetime.now(UTC) - timedelta(seconds=0.3)
        held = count_jobs(status="running", worker_id=worker, next_attempt_at__lte=fired_before)
        if held >= count:
            break
        time.sleep(0.1)
    return held


def executor_killed(ctx: Context) -> Outcome:
    """An executor killed with SIGKILL while 500 calls are out and the rest of its claims
    wait for a slot; another executor, running beside it as on a cluster, with room for
    them all, takes them once the reconciler finds the dead one's heartbeat stale."""
    jobs = ctx.n(5_000)
    in_flight = min(500, jobs // 2)
    ctx.stack.api()
    ctx.stack.scheduler()
    ctx.stack.reconciler()
    ctx.stack.executor("doomed", concurrency=in_flight + 50)
    # Claiming only what is due, the other leaves the doomed one all it claims ahead.
    ctx.stack.executor("rescuer", concurrency=jobs + 50, horizon=0)
    ctx.stack.wait_ready()
    # Due once all are made (5,000 through the API took over 30 s on a loaded machine):
    # their delays are then the kill's, not the creation's.
    expected = slow_jobs(ctx, jobs, lead=max(5.0, 60 * ctx.scale))
    held = wait_in_flight("doomed", in_flight)
    ctx.faults.instant(f"executor SIGKILL with {held} calls out")
    ctx.stack.kill("doomed")
    ctx.wait_for(expected, timeout=600)
    outcome = ctx.outcome(expected)
    outcome.notes["calls out at the kill"] = held
    outcome.notes["jobs handed back for a stale heartbeat"] = handed_back_dead(ctx)
    outcome.notes["leases returned by the reconciler"] = reconciled(ctx)
    outcome.checks[f"{in_flight} calls were out at the kill"] = held >= in_flight
    outcome.checks["the dead executor's jobs went back for its stale heartbeat"] = (
        handed_back_dead(ctx) > 0
    )
    return outcome


def executor_paused(ctx: Context, *, pause: float = 30) -> Outcome:
    """An executor frozen with SIGSTOP for longer than its leases (timeout 10 s + margin),
    then resumed: its late results must be dropped by the fence, every job delivered."""
    in_flight = min(300, ctx.n(3_000) // 2)
    ctx.stack.api()
    ctx.stack.scheduler()
    ctx.stack.reconciler()
    frozen = ctx.stack.executor("frozen", concurrency=in_flight + 50)
    ctx.stack.wait_ready()
    expected = slow_jobs(ctx, ctx.n(3_000))
    held = wait_in_flight("frozen", in_flight)
    # Frozen at once, while its calls (2.5 s each) are still out: a start of the second
    # executor first (seconds on a busy machine) let them all finish before the freeze.
    faults = [ctx.faults.begin(f"executor SIGSTOP {pause:.0f} s with {held} calls out")]
    frozen.signal(signal.SIGSTOP)
    # Only now the second one: an executor claims all it can hold of what is due within its
    # horizon, so one started beside it could leave the frozen one with no call to freeze.
    ctx.stack.executor("steady", concurrency=300)
    ctx.stack.wait_ready()

    def resume() -> None:
        frozen.signal(signal.SIGCONT)
        ctx.faults.finish(faults[0])

    timeline = Timeline([(pause, resume)])
    ctx.wait_for(expected, timeout=600, during=timeline)
    # The resumed executor's next round writes (and the fence drops) its late results.
    deadline = time.monotonic() + 30
    while not _dropped(frozen.log()) and time.monotonic() < deadline:
        time.sleep(0.5)
    outcome = ctx.outcome(expected)
    dropped = _dropped(frozen.log())
    outcome.notes["late results dropped by the fence"] = dropped
    outcome.notes["leases returned by the reconciler"] = reconciled(ctx)
    outcome.notes["jobs handed back for a stale heartbeat"] = handed_back_dead(ctx)
    outcome.checks["the frozen executor's late results were dropped"] = dropped > 0
    # Its jobs go back once its heartbeat is stale (5 s), well inside the pause.
    outcome.checks["the pause outlived the heartbeat"] = handed_back_dead(ctx) > 0
    return outcome


def _dropped(log: str) -> int:
    total = 0
    for line in log.splitlines():
        if "dropped " in line and "stale results" in line:
            total += int(line.split("dropped ", 1)[1].split(" ", 1)[0])
    return total
