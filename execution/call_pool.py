"""The executor's call pool: a bounded number of calls in flight, the most urgent first.

A job whose second has come starts at once if a slot is free, else waits. Waiting jobs are
taken most urgent priority first and, inside a priority, tenant by tenant (jobs/turns.py);
while other tenants' jobs are due, no tenant takes the last tenth of the slots
(execution/slot_share.py). The last `reserved_for_critical` slots only take priority 0, so
a queue of ordinary calls never keeps a critical one waiting for a slot.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from execution import metrics
from execution.delivery import CallOutcome, Delivery, job_log_fields
from execution.executor_beat import Liveness
from execution.executor_outbox import Outbox
from execution.flow_calls_counter import FLOW_NAMES
from execution.held_job import HeldJob
from execution.slot_share import SlotShare
from execution.unfired_jobs import UnfiredJobs
from jobs import queue
from jobs.models import CALLBACK_PRIORITY
from jobs.queue import ClaimedJob
from jobs.turns import Turns
from tasks.models import CRITICAL_PRIORITY

logger = logging.getLogger("execution.executor")

FAILED_TO_CALL = "the executor could not make the call"


class CallPool:
    def __init__(
        self,
        *,
        delivery: Delivery,
        outbox: Outbox,
        concurrency: int,
        reserved_for_critical: int,
        on_result: Callable[[int], None],
        on_drained: Callable[[], None],
        liveness: Liveness | None = None,
    ) -> None:
        self.delivery = delivery
        self.outbox = outbox
        self.concurrency = concurrency
        self.reserved_for_critical = reserved_for_critical
        self.on_result = on_result  # told how many results wait, after each one
        self.on_drained = on_drained  # told when no due job waits for a slot any more
        self.liveness = liveness  # None: no heartbeat to keep (the pool alone, in tests)
        self.in_flight: dict[asyncio.Task, ClaimedJob] = {}
        self.in_flight_normal = 0
        self.waiting: Turns[HeldJob] = Turns()
        self.share = SlotShare(concurrency=concurrency, reserved_for_critical=reserved_for_critical)
        self.inactive_tenants: frozenset[str] = frozenset()
        self.unfired = UnfiredJobs()  # claimed, not started: what a stopped task settles
        self.fired = self.succeeded = self.failed = 0
        self._settled_queued = 0  # settled jobs still in `waiting` (passed over in turn)

    def expect(self, held: HeldJob) -> None:
        """The job will be offered at its second (the timers hold it): until then its tenant
        counts among those with jobs due here."""
        self.share.coming(held.job)

    def forget(self, held: HeldJob) -> None:
        """A job that will not be called (settled before its call): on the timers, or in the
        queue, where it stays until its turn comes but no longer counts as waiting."""
        if held.queued:
            self._settled_queued += 1
        self.share.gone(held.job)
        self._start_waiting()  # its tenant may have been the one a slot was kept for

    @property
    def waiting_for_slot(self) -> int:
        """Jobs in the queue that will be called once a slot is free."""
        return len(self.waiting) - self._settled_queued

    def offer(self, held: HeldJob) -> None:
        """The job's second has come: call now, or wait for a free slot."""
        if held.settled:
            return
        job = held.job
        self.share.coming(job)
        held.queued = True
        self.waiting.push(job.priority, job.tenant_id, held)
        self._start_waiting()

    def give_back_waiting(self) -> None:
        for held in self.waiting:
            if not held.settled:
                self.outbox.give_back(held.job)
        self.waiting.clear()
        self._settled_queued = 0
        self.unfired.clear()
        self.share.forget_due()  # the timers give back what they hold at the same time

    async def finish(self, timeout: float) -> None:
        """Let the calls in flight end within `timeout`; those cut off are given back."""
        if not self.in_flight:
            return
        _, pending = await asyncio.wait(list(self.in_flight), timeout=max(0.0, timeout))
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)

    # --- slots -------------------------------------------------------------------------------

    def _start_waiting(self) -> None:
        """Start waiting jobs, in turn, while a slot is free for one."""
        while (most_urgent := self._free_slots_take()) is not None:
            held = self.waiting.pop(self.share.may_start, max_priority=most_urgent)
            if held is None:
                return
            held.queued = False
            if held.settled:
                self._settled_queued -= 1
                continue
            self._start(held)

    def _free_slots_take(self) -> int | None:
        """The least urgent priority a free slot takes (None: no slot is free)."""
        if len(self.in_flight) >= self.concurrency:
            return None
        if self.in_flight_normal < self.concurrency - self.reserved_for_critical:
            return CALLBACK_PRIORITY  # the least urgent lane: callbacks
        return CRITICAL_PRIORITY

    def _start(self, held: HeldJob) -> None:
        if held.settled:
            return  # its task was paused or deleted while it waited for a slot
        self.unfired.discard(held)
        job = held.job
        self.share.gone(job)
        now = datetime.now(UTC)
        if now + timedelta(seconds=job.timeout_seconds) > job.lease_expires_at:
            # It waited so long for a slot that the call could outlive its lease (and be
            # taken back by the reconciler meanwhile): give it back instead.
            self.outbox.give_back(job)
            return
        if job.tenant_id in self.inactive_tenants:
            self.outbox.give_back(job)  # its tenant was stopped since the claim
            return
        if self.liveness is not None and not self.liveness.may_fire(held.claimed_mono):
            # The reconciler may take this executor for dead (its beat is late), or has
            # since its claim: another executor may hold the job now. Fenced by its
            # attempt, the hand-back changes nothing if so.
            self.outbox.give_back(job)
            return
        delay = max(0.0, (now - job.next_attempt_at).total_seconds())
        metrics.START_DELAY.labels(str(job.priority)).observe(delay)
        FLOW_NAMES.started(job.flow_id)
        task = asyncio.create_task(self._call(held))
        self.in_flight[task] = job
        self.in_flight_normal += job.priority != CRITICAL_PRIORITY
        self.share.started(job)
        task.add_done_callback(self._done)
        self.fired += 1

    def _done(self, task: asyncio.Task) -> None:
        job = self.in_flight.pop(task, None)
        if job is not None:
            self.in_flight_normal -= job.priority != CRITICAL_PRIORITY
            self.share.ended(job)
        if not self.waiting:
            return
        self._start_waiting()
        if not self.waiting_for_slot:
            self.on_drained()  # the claims that a backlog held back may go on

    # --- one call ----------------------------------------------------------------------------

    async def _call(self, held: HeldJob) -> None:
        job = held.job
        try:
            if held.error:
                outcome = _no_call(held.error)
            else:
                outcome = await self.delivery.call(
                    job, authorization=held.authorization, secret_hosts=held.secret_hosts
                )
        except asyncio.CancelledError:
            # Cut off by a stop: the executor's doing, not the endpoint's, so no attempt
            # is charged (the call may have arrived: delivery is at least once).
            self.outbox.give_back(job)
            return
        except Exception:
            logger.exception(
                "call of job %s failed inside the executor", job.id, extra=job_log_fields(job)
            )
            outcome = _no_call(FAILED_TO_CALL)
        self._result(job, outcome)

    def _result(self, job: ClaimedJob, outcome: CallOutcome) -> None:
        if outcome.succeeded:
            self.succeeded += 1
        else:
            self.failed += 1
        result = queue.outcome(
            job,
            succeeded=outcome.succeeded,
            now=datetime.now(UTC),
            retry_after=outcome.retry_after,
            http_status=outcome.http_status,
            error=outcome.error,
            response_body=outcome.response_body,
            duration_ms=outcome.duration_ms,
            started_at=outcome.started_at,
            response_raw=outcome.response_raw,
            flow_failed=outcome.destination_failed if job.flow_id is not None else None,
        )
        metrics.count_attempt(job.tenant_id, result.status)
        self.on_result(self.outbox.add_result(result))


def _no_call(error: str) -> CallOutcome:
    """An attempt that failed before any request was sent."""
    return CallOutcome(False, None, error, None, 0, None, datetime.now(UTC))
