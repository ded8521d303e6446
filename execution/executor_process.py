"""The executor process: claim due jobs ahead of time, fire each on its second, write
every result.

Three parts, each in its own file: the database round (executor_round: one transaction per
turn of this loop, in the main thread), the timers (executor_timers) and the call pool
(call_pool), both on an asyncio loop in a second thread, so thousands of calls in flight
cost no threads and the calls never wait on MySQL. The outbox carries results and
hand-backs from the loop to the round.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.db import connection

from execution.call_pool import CallPool
from execution.delivery import Delivery
from execution.executor_beat import BeatThread, Liveness
from execution.executor_outbox import Outbox
from execution.executor_round import DatabaseRound, RoundLimits, RoundReport
from execution.executor_timers import Timers
from execution.flow_wake import until_flow_wake
from execution.loop_thread import LoopThread
from execution.metrics import DROPPED_RESULTS
from execution.runtime import TRANSIENT_DATABASE_ERRORS, Backoff, LoopProcess
from tasks.address_policy import default_policy

# A round's results weigh this much at most: well inside any max_allowed_packet, and a
# long-enough round for hundreds of 4 KiB bodies.
RESULT_BATCH_BYTES = 1024 * 1024
# With results waiting, the next round comes this soon: a result is written within about
# this long of its call's end, in batches.
RESULT_FLUSH_SECONDS = 0.05
FINAL_FLUSH_SECONDS = 10
# Jobs held at most per call slot (on timers, waiting for a slot, in flight). A burst
# claimed ahead went to whichever executor polled first after it came within the horizon
# (7,100 of 10,100 to one of two, which then drained alone while the other idled): bound
# by its slots, each executor takes the rest as its own calls end, so a burst is split
# by the executors' pace.
HELD_PER_SLOT = 5


class ExecutorProcess(LoopProcess):
    name = "executor"
    # A busy executor turns every few tens of milliseconds, and a ping each turn was about a
    # tenth of its CPU. A connection that dies between two checks fails that turn's exchange:
    # its results go back to the outbox and the turn is waited out like any lost connection.
    connection_check_seconds = 0.5

    def __init__(
        self,
        *,
        worker_id: str,
        concurrency: int = 2000,
        poll_interval: float = 1.0,
        critical_share: float = 0.1,
        grace_seconds: float = 30.0,
        horizon_seconds: float = 5.0,
        max_held: int = 20000,
        claim_batch: int = 1000,
        result_batch: int = 500,
        result_batch_bytes: int = RESULT_BATCH_BYTES,
        delivery: Delivery | None = None,
    ) -> None:
        super().__init__(poll_interval=poll_interval)
        self.worker_id = worker_id
        self.grace_seconds = grace_seconds
        # At least one slot kept for priority 0, and at least one left for the rest.
        share = max(1, int(concurrency * critical_share))
        reserved = min(share, concurrency - 1) if concurrency > 1 else 0
        self.outbox = Outbox()
        self.calls = LoopThread(f"{worker_id}-calls")
        dead_after = settings.EXECUTOR_DEAD_AFTER_SECONDS
        self.liveness = Liveness(dead_after)
        self.beats = BeatThread(self.name, worker_id, self.liveness, every=dead_after / 5)
        self.pool = CallPool(
            delivery=delivery or Delivery(policy=default_policy(), concurrency=concurrency),
            outbox=self.outbox,
            concurrency=concurrency,
            reserved_for_critical=reserved,
            on_result=self._on_result,
            on_drained=self.wake,
            liveness=self.liveness,
        )
        self.timers = Timers(pool=self.pool, outbox=self.outbox, horizon_seconds=horizon_seconds)
        max_held = min(max_held, max(claim_batch, HELD_PER_SLOT * concurrency))
        limits = RoundLimits(
            horizon_seconds=horizon_seconds,
            max_held=max_held,
            reserved_for_critical=max(1, int(max_held * critical_share)),
            claim_batch=claim_batch,
            result_batch=result_batch,
            result_batch_bytes=result_batch_bytes,
            backlog=max(concurrency, 1),
        )
        self.round = DatabaseRound(worker_id=worker_id, outbox=self.outbox, limits=limits)
        self.claimed = self.written = self.dropped = self.handed_back = self.refused = 0
        self._reported = 0.0

    # --- the loop's turns --------------------------------------------------------------------

    @property
    def instance_id(self) -> str:
        """Its heartbeat row is named as its claims are (jobs.worker_id): the reconciler
        reads one against the other."""
        return self.worker_id

    def heartbeat(self) -> None:
        """Written by its own thread (execution/executor_beat.py), not after each round."""

    def on_start(self) -> None:
        # Before the first claim: a job claimed before the first beat is never called.
        self.beats.beat_now()
        self.beats.start()
        self.calls.start()
        self.calls.wait_for(self.pool.delivery.start())

    def run_once(self) -> float:
        report = self.round.run(
            claim=True,
            waiting_for_slot=self.pool.waiting_for_slot,
            watch_flows=self.pool.unfired.holds_flows,
        )
        self._count(report)
        stops = report.inactive_tenants is not None or report.stopped_tasks or report.stopped_flows
        if report.claimed or stops:
            # Waited for (a few ms): the next round's limits must see these jobs in place.
            self.calls.wait_for(self._take(report))
        self._report_now_and_then()
        if report.again:
            return 0
        wait = RESULT_FLUSH_SECONDS if self.outbox.waiting else self.poll_interval
        return until_flow_wake(report.flow_wake_at, wait)

    async def _take(self, report: RoundReport) -> None:
        self.timers.take(
            report.claimed, report.inactive_tenants, report.stopped_tasks, report.stopped_flows
        )

    def _on_result(self, waiting: int) -> None:
        """In the loop's thread: the first result after a round, and a full batch, wake the
        round (the ones between are written by the rounds that follow, 50 ms apart)."""
        if waiting == 1 or waiting == self.round.limits.result_batch:
            self.wake()

    def _count(self, report: RoundReport) -> None:
        self.claimed += len(report.claimed)
        self.written += report.written
        self.dropped += report.dropped
        self.handed_back += report.handed_back
        self.refused += report.refused
        if report.refused:
            self.logger.warning(
                "the database refused %d results; stored as errors without their body",
                report.refused,
            )
        if report.dropped:
            DROPPED_RESULTS.inc(report.dropped)
            self.logger.info("dropped %d stale results (claimed again since)", report.dropped)

    # --- stopping ----------------------------------------------------------------------------

    def on_stop(self) -> None:
        """Give back what was never fired, let calls in flight finish within the grace
        period (giving back those cut off), write everything, then close."""
        deadline = time.monotonic() + self.grace_seconds
        self.logger.info(
            "executor stopping: %d calls in flight get up to %.0fs; the rest go back",
            len(self.pool.in_flight),
            self.grace_seconds,
        )
        # The jobs never fired go back first, so other executors can take them at once
        # rather than after the calls in flight have had their grace.
        self.calls.wait_for(self._give_back_held())
        self._flush(time.monotonic() + FINAL_FLUSH_SECONDS)
        self.calls.wait_for(self.pool.finish(deadline - time.monotonic()))
        self._flush(max(deadline, time.monotonic() + FINAL_FLUSH_SECONDS))
        self.calls.wait_for(self.pool.delivery.close())
        self.calls.stop()
        self.beats.stop()
        self.logger.info("executor stopped: %s", self._line())

    async def _give_back_held(self) -> None:
        self.timers.give_back_all()

    def _flush(self, deadline: float) -> None:
        backoff = Backoff(base=0.2, cap=5)
        while self.outbox.waiting and time.monotonic() < deadline:
            try:
                self._count(self.round.run(claim=False))
            except TRANSIENT_DATABASE_ERRORS as exc:
                self.logger.warning("final write failed (%s); retrying", exc)
                connection.close()
                time.sleep(backoff.next_delay())
        if self.outbox.waiting:
            self.logger.warning(
                "%d results and hand-backs not written; their leases will expire and the "
                "reconciler will return those jobs",
                self.outbox.waiting,
            )

    # --- reporting ---------------------------------------------------------------------------

    def _report_now_and_then(self) -> None:
        now = time.monotonic()
        if now - self._reported >= max(self.poll_interval, 1.0):
            self._reported = now
            self.logger.info("executor %s", self._line())

    def _line(self) -> str:
        pool = self.pool
        counts = {
            "claimed": self.claimed,
            "fired": pool.fired,
            "succeeded": pool.succeeded,
            "failed": pool.failed,
            "written": self.written,
            "dropped": self.dropped,
            "handed_back": self.handed_back,
            "refused": self.refused,
            "held": self.outbox.held,
            "parked": self.timers.count,
            "in_flight": len(pool.in_flight),
        }
        return " ".join(f"{name}={value}" for name, value in counts.items())
