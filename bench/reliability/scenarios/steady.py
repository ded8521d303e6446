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


class KillMidTick:
    """From second 55 of a minute (the lookahead is 5 s, so the next minute's runs are
    being made), kill the victim as soon as its log shows a full tick: it is then in the
    middle of the back-to-back ticks that drain the minute's runs."""

    def __init__(self, ctx: Context, victim: str, batch: int, armed_at: float) -> None:
        self.ctx, self.victim, self.armed_at = ctx, victim, armed_at
        self.full_tick = f"tick selected={batch} "
        self.finished = False
        self.mid_tick = False

    def __call__(self, elapsed: float) -> None:
        if self.finished or time.time() < self.armed_at:
            return
        log = self.ctx.stack.processes[self.victim].log()
        self.mid_tick = self.full_tick in log[-2000:]
        if self.mid_tick or time.time() > self.armed_at + 4:
            self.ctx.faults.instant(f"{self.victim} SIGKILL mid-tick")
            self.ctx.stack.kill(self.victim)
            self.finished = True


def scheduler_killed(ctx: Context) -> Outcome:
    """Two schedulers; one killed with SIGKILL in the middle of the ticks that make the
    next minute's runs. No run may be skipped or made twice."""
    batch = max(20, ctx.n(250))  # small batches: a minute's runs take many ticks
    ctx.stack.api()
    for name in ("scheduler-a", "scheduler-b"):
        ctx.stack.scheduler(name, batch=batch)
    for n in range(2):
        ctx.stack.executor(f"executor-{n}")
    ctx.stack.reconciler()
    ctx.stack.wait_ready()
    expected = steady_load(ctx)
    killer = KillMidTick(ctx, "scheduler-a", batch, (int(time.time()) // 60 + 1) * 60 + 55)
    ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=killer)
    outcome = ctx.outcome(expected)
    lines = ctx.stack.processes["scheduler-a"].log().splitlines()
    outcome.notes["killed scheduler's last tick lines"] = [t for t in lines if " tick " in t][-3:]
    outcome.checks["no run made twice"] = outcome.as_json()["runs_made_twice"] == 0
    outcome.checks["killed between two full ticks"] = killer.mid_tick
    return outcome


def _noticed_outage(log: str) -> bool:
    return any(sign in log for sign in ("unavailable (", "database round failed", "Lost conn"))
