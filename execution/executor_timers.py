"""The executor's timers: each claimed job waits for its second, then goes to the call pool.

Jobs are claimed a few seconds ahead of their time (the round's horizon), so when a burst's
second comes only the calls and their result writes remain.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime, timedelta

from execution import metrics
from execution.call_pool import CallPool
from execution.executor_outbox import Outbox
from execution.flow_pace import FlowPace
from execution.held_job import HeldJob
from jobs.models import JobStatus
from jobs.queue import JobResult
from jobs.turns import in_turns
from tasks.models import CRITICAL_PRIORITY, TaskStatus

MAX_EARLY_SECONDS = 1.0
CLOCK_WARNING_SECONDS = 60.0
log = logging.getLogger("execution.executor")


class Timers:
    """One timer per due instant, not per job: a burst of thousands due in the same second
    is one callback, which hands its jobs to the pool most urgent first and lets priority 0
    calls start before the rest are even offered.

    Every job held here is announced to the pool (`pool.expect`), so that its tenant's turn
    is kept a slot; one that leaves without being offered goes to `pool.forget`.
    """

    def __init__(self, *, pool: CallPool, outbox: Outbox, horizon_seconds: float = 5.0) -> None:
        self.pool = pool
        # A claimed job is due within the claim's horizon by the database's clock, which
        # also runs its lease: a longer wait by this machine's clock means the two clocks
        # disagree, and it is cut short, so the call goes before the lease runs out and
        # another executor takes the job. The database's clock wins (the call may then go
        # early by this machine's clock, if this clock was the right one).
        self.longest_wait = horizon_seconds + MAX_EARLY_SECONDS
        self._cut_short: set[datetime] = set()  # the due instants whose wait was cut
        self._warned_at = -CLOCK_WARNING_SECONDS  # monotonic
        self.outbox = outbox
        self.parked: dict[datetime, list[HeldJob]] = {}  # by due instant
        self.pace = FlowPace()  # rate-limited flows' calls, as this executor offers them
        self._timers: dict[datetime, asyncio.TimerHandle] = {}
        self.count = 0  # jobs parked
        self._offering: dict[int, list[HeldJob]] = {}  # groups due, to offer next turn

    def take(
        self,
        claimed: list[HeldJob],
        inactive_tenants: frozenset[str] | None,
        stopped_tasks: dict[str, str] | None = None,
        stopped_flows: frozenset[int] = frozenset(),
    ) -> None:
        """Jobs of one claim (in the loop's thread), with who was stopped at that claim and
        the tasks paused or deleted, and the flows paused or opened, since the round before."""
        if inactive_tenants is not None:
            self.pool.inactive_tenants = inactive_tenants
        # First: settling frees slots, and a freed slot must not start a job of a task
        # stopped in the same round, nor the claim's due jobs run before them.
        self._settle_stopped(stopped_tasks or {})
        self._give_back_flows(stopped_flows)
        loop = asyncio.get_running_loop()
        now = datetime.now(UTC)
        due_now = []
        for held in claimed:
            if self._settle(held, held.job.task_status):
                continue
            self.pool.unfired.add(held)
            self.pool.expect(held)  # its tenant's share of the slots may wait for it
            due = held.job.next_attempt_at
            if due <= now:
                due_now.append(held)
                continue
            self._park(held, due, now, loop, longest=self.longest_wait)
        self._offer(due_now)

    def _park(
        self, held: HeldJob, due: datetime, now: datetime, loop, longest: float | None = None
    ) -> None:
        """Hold the job until `due`; a timer armed for longer than `longest` seconds fires
        then instead (and _fire, finding the wall clock still before `due`, calls now)."""
        if due not in self.parked:
            self.parked[due] = []
            delay = (due - now).total_seconds()
            if longest is not None and delay > longest:
                self._clock_warning(
                    "a job claimed for %s is %.1f s ahead by this machine's clock, beyond the"
                    " claim's horizon: this clock and the database's disagree; it goes in"
                    " %.1f s, before its lease (on the database's clock) runs out",
                    due.isoformat(),
                    delay,
                    longest,
                )
                delay = longest
                self._cut_short.add(due)
            self._timers[due] = loop.call_later(delay, self._fire, due)
        self.parked[due].append(held)
        self.count += 1

    def _clock_warning(self, message: str, *args) -> None:
        """At most one warning a minute: a clock off by seconds would say so for every due
        instant (retries' instants are microseconds apart)."""
        now = time.monotonic()
        if now - self._warned_at >= CLOCK_WARNING_SECONDS:
            self._warned_at = now
            log.warning(message, *args)

    def _settle_stopped(self, stopped_tasks: dict[str, str]) -> None:
        """Every job of these tasks is marked before any is settled (see take)."""
        found = [
            (held, status)
            for task_id, status in stopped_tasks.items()
            for held in self.pool.unfired.of_task(task_id)
            if _stops(held, status)
        ]
        for held, _ in found:
            held.settled = True
        for held, status in found:
            self._settle(held, status)

    def _give_back_flows(self, stopped_flows: frozenset[int]) -> None:
        """The unfired jobs of flows paused or opened go back pending, charging no attempt:
        the next claim's gate parks them in their place until the flow has room again."""
        found = [held for flow_id in stopped_flows for held in self.pool.unfired.of_flow(flow_id)]
        for held in found:  # every one is marked before any slot is freed (see take)
            held.settled = True
        for held in found:
            self.outbox.give_back(held.job)
            self.pool.unfired.discard(held)
            self.pool.forget(held)

    def give_back_all(self) -> None:
        """On stop: every job not yet called goes back, charging no attempt."""
        for timer in self._timers.values():
            timer.cancel()
        for group in [*self.parked.values(), *self._offering.values()]:
            for held in group:
                if not held.settled:
                    self.outbox.give_back(held.job)
        self.pool.unfired.clear()
        self.parked.clear()
        self._timers.clear()
        self._offering.clear()
        self._cut_short.clear()
        self.count = 0
        self.pool.give_back_waiting()

    def _fire(self, due: datetime) -> None:
        # The loop's timers run on the monotonic clock (uvloop's to the millisecond) while
        # `due` is wall time, and a slewed wall clock lags it: a timer may fire just before
        # its instant, and no call may start before the instant its tenant asked for.
        # A wall clock stepped back (more than any timer's error) is not waited out: the
        # jobs were claimed for now, and their leases run on. Nor is a wait cut at the
        # claim's horizon (__init__): there too the database's clock rules.
        early = (due - datetime.now(UTC)).total_seconds()
        if due in self._cut_short:  # its wait was cut at the horizon: it goes now
            self._cut_short.discard(due)
            early = 0.0
        if 0 < early <= MAX_EARLY_SECONDS:
            retry = max(early, 0.001)  # uvloop runs a shorter delay at once
            self._timers[due] = asyncio.get_running_loop().call_later(retry, self._fire, due)
            return
        if early > MAX_EARLY_SECONDS:
            self._clock_warning(
                "the wall clock is %.1f s behind the loop's timer: calls go now", early
            )
        self._timers.pop(due, None)
        group = self.parked.pop(due, [])
        self.count -= len(group)
        self._offer([held for held in group if not held.settled])

    def _offer(self, group: list[HeldJob]) -> None:
        """Priority 0 now; the rest on the loop's next turn, after those calls have started."""
        group = self._paced(group)
        critical = [held for held in group if held.job.priority == CRITICAL_PRIORITY]
        for held in fair_order(critical):
            self.pool.offer(held)
        if len(critical) < len(group):
            rest = fair_order([held for held in group if held.job.priority != CRITICAL_PRIORITY])
            self._offering[id(rest)] = rest
            asyncio.get_running_loop().call_soon(self._offer_later, id(rest))

    def _paced(self, group: list[HeldJob]) -> list[HeldJob]:
        """The jobs that may go now; a rate-limited flow's call that would come within a
        period of its flow's `rate` calls before it waits on a timer (execution/flow_pace)."""
        ready, now, loop = [], datetime.now(UTC), asyncio.get_running_loop()
        for held in group:
            pace = held.job.flow_pace
            wait = self.pace.wait(held.job.flow_id, *pace) if pace else 0.0
            if wait > 0:
                self._park(held, now + timedelta(seconds=wait), now, loop)
            else:
                ready.append(held)
        return ready

    def _offer_later(self, group_id: int) -> None:
        for held in self._offering.pop(group_id, []):  # none if given back meanwhile
            self.pool.offer(held)

    def _settle(self, held: HeldJob, task_status: str) -> bool:
        """A job whose task is deleted is cancelled, one whose task is paused waits with it
        (`held`), as the API does with their waiting jobs; a run-now job goes out even
        while its task is paused. Returns whether the job is settled (never to be called)."""
        if not _stops(held, task_status):
            return False
        job = held.job
        if task_status == TaskStatus.DELETED:
            now = datetime.now(UTC)
            result = JobResult(
                job.key, job.attempt, JobStatus.CANCELLED, finished_at=now, error="task deleted"
            )
            metrics.count_attempt(job.tenant_id, result.status)
            self.pool.on_result(self.outbox.add_result(result))
        else:
            self.outbox.give_back(job, JobStatus.HELD)
        held.settled = True
        self.pool.unfired.discard(held)
        self.pool.forget(held)  # no slot is kept for its tenant on its account any more
        return True


def _stops(held: HeldJob, task_status: str) -> bool:
    """Whether the task's state means the job is not to be called: deleted, or paused (a
    run-now job goes out even while its task is paused)."""
    if task_status == TaskStatus.DELETED:
        return True
    return task_status == TaskStatus.PAUSED and not held.job.run_now


def fair_order(group: list[HeldJob]) -> list[HeldJob]:
    """Most urgent priority first and, within a priority, tenants taking turns: a tenant
    whose jobs were claimed last (it had few, or they were made late) is not queued behind
    all of a noisy tenant's jobs due in the same second."""
    return in_turns(group, key=lambda held: (held.job.priority, held.job.tenant_id))
