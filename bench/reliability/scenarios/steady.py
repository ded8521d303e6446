"""Scenarios 2, 4, 6, 11 and 12: the steady mix of cron tasks (every minute, H/5, hourly
and daily with H, a dozen time zones) plus a flow of one-off tasks, with a fault in the
middle."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime, timedelta

from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import Timeline, due_in, reconciled, start_all
from bench.reliability.workload import Run, expected_runs, one_off, steady_mix

TAIL_SECONDS = 240  # after the window: retries, returned leases, the last calls
CUT_SECONDS = 30
RESTART_PAUSE_SECONDS = 5


def steady_load(ctx: Context) -> dict[tuple[str, str], Run]:
    """20,000 cron tasks and 6,000 one-off tasks spread over the window, created through
    the API; the runs they must make before the window ends."""
    seconds = ctx.steady_seconds
    bodies = steady_mix(ctx.endpoint, "cron", ctx.n(20_000))
    bodies += one_off(ctx.endpoint, "ok", "flow", ctx.n(6_000), due_in(3), spread=seconds - 5)
    tasks = ctx.create(bodies)
    return expected_runs(tasks, datetime.now(UTC) + timedelta(seconds=seconds))


def steady(ctx: Context) -> Outcome:
    start_all(ctx)
    expected = steady_load(ctx)
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS)
    return ctx.outcome(expected)


def database_cut(ctx: Context) -> Outcome:
    """The TCP proxy in front of MariaDB drops every connection and refuses new ones for
    30 s; every process must come back by itself."""
    start_all(ctx)
    expected = steady_load(ctx)
    cut_for = min(CUT_SECONDS, ctx.steady_seconds * 0.3)
    at = ctx.steady_seconds * 0.4
    faults = []

    def cut() -> None:
        faults.append(ctx.faults.begin(f"database cut {cut_for:.0f} s"))
        ctx.stack.proxy.cut()

    def restore() -> None:
        ctx.stack.proxy.restore()
        ctx.faults.finish(faults[-1])

    timeline = Timeline([(at, cut), (at + cut_for, restore)])
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=timeline)
    outcome = ctx.outcome(expected)
    noticed = [name for name, p in ctx.stack.processes.items() if _noticed_outage(p.log())]
    outcome.notes["processes that saw the cut and came back"] = noticed
    outcome.checks["the cut happened and ended"] = timeline.finished
    return outcome


def mariadb_restarted(ctx: Context) -> Outcome:
    """The campaign's own MariaDB server stopped (clean shutdown) and started again."""
    server = ctx.settings.server
    if server is None:
        raise RuntimeError("this scenario needs the campaign's private MariaDB server")
    start_all(ctx)
    expected = steady_load(ctx)

    def restart() -> None:
        with ctx.faults.window("MariaDB restarted"):
            server.stop()
            time.sleep(RESTART_PAUSE_SECONDS)
            server.start()

    timeline = Timeline([(ctx.steady_seconds * 0.4, restart)])
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=timeline)
    outcome = ctx.outcome(expected)
    outcome.checks["the restart happened"] = timeline.finished
    return outcome


def executor_sigterm(ctx: Context) -> Outcome:
    """Two schedulers and three executors; one executor stopped with SIGTERM in the middle:
    it hands its claimed, unfired jobs back at once, so none waits for a lease."""
    start_all(ctx, executors=3, schedulers=2)
    expected = steady_load(ctx)
    leaving = ctx.stack.processes["executor-2"]

    def sigterm() -> None:
        ctx.faults.instant("executor-2 SIGTERM")
        leaving.signal(signal.SIGTERM)

    timeline = Timeline([(ctx.steady_seconds * 0.5, sigterm)])
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=timeline)
    outcome = ctx.outcome(expected)
    leaving.popen.wait(timeout=60)
    last = [line for line in leaving.log().splitlines() if "executor stopped:" in line]
    outcome.notes["stopped executor's last line"] = last[-1] if last else None
    outcome.notes["leases returned by the reconciler"] = reconciled(ctx)
    outcome.checks["the executor stopped cleanly on SIGTERM"] = leaving.popen.returncode == 0
    outcome.checks["no job waited for its lease to expire"] = reconciled(ctx) == 0
    return outcome


def scheduler_killed(ctx: Context) -> Outcome:
    """Two schedulers; one killed with SIGKILL in the middle of the ticks that make the
    next minute's jobs. No run may be skipped or made twice."""
    ctx.stack.api()
    for name in ("scheduler-a", "scheduler-b"):
        ctx.stack.scheduler(name, batch=250)  # small batches: a minute's runs take many ticks
    for n in range(2):
        ctx.stack.executor(f"executor-{n}")
    ctx.stack.reconciler()
    ctx.stack.wait_ready()
    expected = steady_load(ctx)
    began = time.time()
    # The scheduler's lookahead is 5 s: the next minute's runs are made from second 55 on.
    boundary = (int(began) // 60 + 2) * 60
    victim = ctx.stack.processes["scheduler-a"]

    def kill() -> None:
        ctx.faults.instant("scheduler-a SIGKILL mid-tick")
        ctx.stack.kill("scheduler-a")

    timeline = Timeline([(boundary - 5 + 0.3 - began, kill)])
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=timeline)
    outcome = ctx.outcome(expected)
    ticks = [line for line in victim.log().splitlines() if " tick " in line]
    outcome.notes["killed scheduler's last tick lines"] = ticks[-3:]
    outcome.checks["no run made twice"] = outcome.as_json()["runs_made_twice"] == 0
    outcome.checks["the kill happened"] = timeline.finished
    return outcome


def _noticed_outage(log: str) -> bool:
    return any(sign in log for sign in ("unavailable (", "database round failed", "Lost conn"))
