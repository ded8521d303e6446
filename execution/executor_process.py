"""The executor process: claim due jobs, fire each on its second, record every result.

One asyncio event loop makes the calls (aiohttp; thousands in flight cost no threads) and
keeps each claimed job on a timer until its second. All database work runs in one thread
beside the loop, with its own connection, one transaction per round: write the waiting
results, hand back what will not be fired, claim up to the free capacity. The loop never
waits on MySQL.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.db import close_old_connections, connection

from execution import metrics
from execution.delivery import CallOutcome, Delivery, job_log_fields
from execution.runtime import TRANSIENT_DATABASE_ERRORS, Backoff
from jobs import queue
from jobs.models import JobStatus
from jobs.queue import ClaimedJob, JobResult
from tasks.address_policy import default_policy
from tasks.models import TaskStatus
from tasks.secrets import secret_values

logger = logging.getLogger("execution.executor")

MISSING_SECRET = "secret_ref {name!r} names no secret of this tenant"
UNDECRYPTABLE_SECRET = "secret_ref {name!r}: the secret could not be decrypted"
FAILED_TO_CALL = "the executor could not make the call"
RESULT_FLUSH_SECONDS = 0.05
# Jobs due within two poll intervals are claimed, so a claim that takes long under load
# still parks a job before its second instead of after it.
CLAIM_AHEAD_INTERVALS = 2
FINAL_FLUSH_SECONDS = 10


@dataclass
class ExecutorCounts:
    claimed: int = 0
    fired: int = 0
    succeeded: int = 0
    failed: int = 0
    written: int = 0
    dropped: int = 0
    handed_back: int = 0

    def line(self) -> str:
        return " ".join(f"{name}={value}" for name, value in vars(self).items())


@dataclass
class ParkedJob:
    job: ClaimedJob
    authorization: str | None
    error: str | None
    timer: asyncio.TimerHandle | None = field(default=None)


class ExecutorProcess:
    name = "executor"

    def __init__(
        self,
        *,
        worker_id: str,
        concurrency: int = 2000,
        poll_interval: float = 1.0,
        critical_share: float = 0.1,
        grace_seconds: float = 30.0,
        claim_batch: int = 1000,
        result_batch: int = 500,
        delivery: Delivery | None = None,
    ) -> None:
        self.worker_id = worker_id
        self.concurrency = concurrency
        self.poll_interval = poll_interval
        # At least one slot kept for priority 0, and at least one left for the rest.
        share = max(1, int(concurrency * critical_share))
        self.reserved_for_critical = min(share, concurrency - 1) if concurrency > 1 else 0
        self.grace_seconds = grace_seconds
        self.claim_batch = claim_batch
        self.result_batch = result_batch
        self.prefetch = max(1, concurrency // 2)
        self.delivery = delivery or Delivery(policy=default_policy(), concurrency=concurrency)
        self.counts = ExecutorCounts()
        self.parked: dict[str, ParkedJob] = {}  # claimed, on a timer or waiting for a slot
        self.ready: list[tuple[int, datetime, int, str]] = []  # due, waiting for a slot
        self.in_flight: dict[asyncio.Task, ClaimedJob] = {}
        self.in_flight_normal = 0  # calls in flight below priority 0
        self.results: list[JobResult] = []
        self.hand_backs: list[queue.HandBack] = []  # claims that will not be fired
        self.saturated_tenants: frozenset[str] = frozenset()
        self.inactive_tenants: frozenset[str] = frozenset()
        self._ready_order = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._wakeup: asyncio.Event | None = None
        self._stop_requested = False
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="executor-db")

    # --- lifecycle -------------------------------------------------------------------------

    def run(self) -> None:
        asyncio.run(self._main())

    def stop(self) -> None:
        """Safe from a signal handler or another thread."""
        self._stop_requested = True
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)

    @property
    def busy(self) -> int:
        """Claimed jobs this process holds: on a timer, waiting for a slot, or in flight."""
        return len(self.parked) + len(self.in_flight)

    @property
    def capacity(self) -> int:
        """How many claimed jobs this process may hold: the calls it can have in flight plus
        a prefetch, so a slot that frees up never waits for the next claim."""
        return self.concurrency + self.prefetch

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._wakeup = asyncio.Event()
        if self._stop_requested:
            self._stopping.set()
        await self.delivery.start()
        reporter = asyncio.create_task(self._report_forever())
        try:
            await self._exchange_forever()
        finally:
            reporter.cancel()
            await self._shut_down()

    # --- the database side: one transaction per round ----------------------------------------

    async def _exchange_forever(self) -> None:
        backoff = Backoff()
        while not self._stopping.is_set():
            try:
                busy_again = await self._exchange_once(claim=True)
                backoff.reset()
                metrics.mark_healthy(self.name)
                delay = 0 if busy_again else self._idle_delay()
            except TRANSIENT_DATABASE_ERRORS as exc:
                delay = backoff.next_delay()
                logger.warning(
                    "database round failed (%s); %d results kept, retrying in %.1fs",
                    exc,
                    len(self.results),
                    delay,
                )
            await self._sleep(delay)

    def _idle_delay(self) -> float:
        pending = self.results or self.hand_backs
        return min(self.poll_interval, RESULT_FLUSH_SECONDS) if pending else self.poll_interval

    async def _exchange_once(self, *, claim: bool) -> bool:
        """One round: write waiting results, hand back, claim up to the free capacity.
        Returns whether another round should follow at once."""
        self._wakeup.clear()  # what frees up during this round wakes the next one
        results = self.results[: self.result_batch]
        hand_backs = list(self.hand_backs)
        critical_limit, normal_limit = self._claim_limits() if claim else (0, 0)
        if not results and not hand_backs and critical_limit <= 0:
            return False
        started = time.perf_counter()
        applied, batch = await self._in_db(
            self._exchange_in_db, results, hand_backs, critical_limit, normal_limit
        )
        metrics.EXCHANGE_SECONDS.observe(time.perf_counter() - started)
        self._written(results, applied)
        del self.hand_backs[: len(hand_backs)]
        self.counts.handed_back += len(hand_backs)
        self.saturated_tenants = batch.saturated_tenants
        if critical_limit > 0:  # a round that claimed also read who is stopped
            self.inactive_tenants = batch.inactive_tenants
        for parked in batch.jobs:
            self._take(parked)
        self.counts.claimed += len(batch.jobs)
        claimed_all = critical_limit > 0 and len(batch.jobs) >= max(
            1, min(critical_limit, max(normal_limit, 1))
        )
        return bool(claimed_all or batch.held_back or len(self.results) >= self.result_batch)

    def _written(self, results: list[JobResult], applied: int) -> None:
        del self.results[: len(results)]
        self.counts.written += applied
        dropped = len(results) - applied
        self.counts.dropped += dropped
        metrics.DROPPED_RESULTS.inc(dropped)
        if dropped:
            logger.info("dropped %d stale results (their job was claimed again)", dropped)

    def _claim_limits(self) -> tuple[int, int]:
        critical = min(self.capacity - self.busy, self.claim_batch)
        normal = min(self.capacity - self.reserved_for_critical - self.busy, self.claim_batch)
        return max(0, critical), max(0, normal)

    def _exchange_in_db(self, results, hand_backs, critical_limit, normal_limit):
        return queue.exchange(
            worker_id=self.worker_id,
            results=results,
            hand_backs=hand_backs,
            critical_limit=critical_limit,
            normal_limit=normal_limit,
            lookahead_seconds=self.poll_interval * CLAIM_AHEAD_INTERVALS,
            skip_tenants=self.saturated_tenants,
            enrich=self._with_secrets,
        )

    def _with_secrets(self, jobs: list[ClaimedJob]) -> list[ParkedJob]:
        refs = {(job.tenant_id, job.secret_ref) for job in jobs if job.secret_ref}
        lookup = secret_values(refs=refs)
        parked = []
        for job in jobs:
            ref = (job.tenant_id, job.secret_ref)
            error = None
            if ref in lookup.undecryptable:
                error = UNDECRYPTABLE_SECRET.format(name=job.secret_ref)
            elif job.secret_ref is not None and ref not in lookup.values:
                error = MISSING_SECRET.format(name=job.secret_ref)
            parked.append(ParkedJob(job, lookup.values.get(ref), error))
        return parked

    # --- holding and firing ------------------------------------------------------------------

    def _take(self, parked: ParkedJob) -> None:
        job = parked.job
        if job.task_status == TaskStatus.DELETED:
            self._record(
                job,
                JobResult(
                    job.key,
                    job.attempt,
                    JobStatus.CANCELLED,
                    finished_at=datetime.now(UTC),
                    error="task deleted",
                ),
            )
            return
        if job.task_status == TaskStatus.PAUSED:
            self._give_back(job, JobStatus.HELD)  # paused since the claim: wait with the task
            return
        # (A stopped tenant's jobs were left out of this very claim; one stopped later is
        # caught when its call is about to start.)
        self.parked[job.key] = parked
        delay = (job.next_attempt_at - datetime.now(UTC)).total_seconds()
        if delay <= 0:
            self._fire(job.key)
        else:
            parked.timer = self._loop.call_later(delay, self._fire, job.key)

    def _fire(self, key: str) -> None:
        """The job's second has come: call now, or wait for a free slot (most urgent
        priority first)."""
        parked = self.parked.get(key)
        if parked is None:
            return
        if not self._slot_for(parked.job):
            self._ready_order += 1
            job = parked.job
            heapq.heappush(self.ready, (job.priority, job.next_attempt_at, self._ready_order, key))
            return
        self._start_call(key)

    def _slot_for(self, job: ClaimedJob) -> bool:
        """A slot is free; the last `reserved_for_critical` slots only take priority 0."""
        if len(self.in_flight) >= self.concurrency:
            return False
        if job.priority == queue.CRITICAL_PRIORITY:
            return True
        return self.in_flight_normal < self.concurrency - self.reserved_for_critical

    def _start_call(self, key: str) -> None:
        parked = self.parked.pop(key)
        job = parked.job
        now = datetime.now(UTC)
        if now + timedelta(seconds=job.timeout_seconds) > job.lease_expires_at:
            # It waited so long for a slot that the call could outlive its lease (and be
            # taken back by the reconciler meanwhile): give it back instead.
            self._give_back(job)
            return
        if job.tenant_id in self.inactive_tenants:
            self._give_back(job)  # stopped since the claim: no call from that round on
            return
        metrics.START_DELAY.labels(str(job.priority)).observe(
            max(0.0, (now - job.next_attempt_at).total_seconds())
        )
        task = asyncio.create_task(self._execute(parked))
        self.in_flight[task] = job
        self.in_flight_normal += job.priority != queue.CRITICAL_PRIORITY
        task.add_done_callback(self._call_done)
        self.counts.fired += 1

    def _call_done(self, task: asyncio.Task) -> None:
        job = self.in_flight.pop(task, None)
        if job is not None and job.priority != queue.CRITICAL_PRIORITY:
            self.in_flight_normal -= 1
        self._start_waiting_calls()
        if self.capacity - self.busy >= max(1, self.concurrency // 10):
            self._wakeup.set()

    def _start_waiting_calls(self) -> None:
        while self.ready:
            _, _, _, key = self.ready[0]
            parked = self.parked.get(key)
            if parked is None:
                heapq.heappop(self.ready)
                continue
            if not self._slot_for(parked.job):
                return
            heapq.heappop(self.ready)
            self._start_call(key)

    async def _execute(self, parked: ParkedJob) -> None:
        job = parked.job
        try:
            if parked.error:
                outcome = CallOutcome(False, None, parked.error, None, 0)
            else:
                outcome = await self.delivery.call(job, authorization=parked.authorization)
        except asyncio.CancelledError:
            # Cut off by a stop: the executor's doing, not the endpoint's, so no attempt
            # is charged (the call may have arrived: delivery is at least once).
            self._give_back(job)
            return
        except Exception:
            logger.exception(
                "call of job %s failed inside the executor", job.id, extra=job_log_fields(job)
            )
            outcome = CallOutcome(False, None, FAILED_TO_CALL, None, 0)
        self._add_result(job, outcome)

    def _add_result(self, job: ClaimedJob, outcome: CallOutcome) -> None:
        if outcome.succeeded:
            self.counts.succeeded += 1
        else:
            self.counts.failed += 1
        self._record(
            job,
            queue.outcome(
                job,
                succeeded=outcome.succeeded,
                now=datetime.now(UTC),
                retry_after=outcome.retry_after,
                http_status=outcome.http_status,
                error=outcome.error,
                response_body=outcome.response_body,
                duration_ms=outcome.duration_ms,
            ),
        )

    def _record(self, job: ClaimedJob, result: JobResult) -> None:
        self.results.append(result)
        metrics.OUTCOMES.labels(job.tenant_id, _outcome_label(result.status)).inc()
        if len(self.results) >= self.result_batch:
            self._wakeup.set()

    # --- stopping ------------------------------------------------------------------------------

    async def _shut_down(self) -> None:
        """Stop claiming, give back what was never fired, let calls in flight finish within
        the grace period (giving back those cut off), write everything, then close."""
        deadline = time.monotonic() + self.grace_seconds
        self._give_back_parked()
        if self.in_flight:
            _, pending = await asyncio.wait(
                list(self.in_flight), timeout=max(0.0, deadline - time.monotonic())
            )
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        await self._flush(deadline=max(deadline, time.monotonic() + FINAL_FLUSH_SECONDS))
        await self.delivery.close()
        await self._in_db(lambda: connection.close())
        self._db.shutdown(wait=True)
        logger.info("executor stopped: %s", self.counts.line())

    def _give_back(self, job: ClaimedJob, status: str = JobStatus.PENDING) -> None:
        """Hand a claimed job back unfired, charging no attempt (written next round)."""
        self.hand_backs.append((job.key, job.attempt, status))

    def _give_back_parked(self) -> None:
        for parked in self.parked.values():
            if parked.timer is not None:
                parked.timer.cancel()
            self._give_back(parked.job)
        self.parked.clear()
        self.ready.clear()

    async def _flush(self, deadline: float) -> None:
        backoff = Backoff(base=0.2, cap=5)
        while (self.results or self.hand_backs) and time.monotonic() < deadline:
            try:
                await self._exchange_once(claim=False)
            except TRANSIENT_DATABASE_ERRORS as exc:
                logger.warning("final write failed (%s); retrying", exc)
                await asyncio.sleep(backoff.next_delay())
        if self.results or self.hand_backs:
            logger.warning(
                "%d results and %d hand-backs not written; their leases will expire and the "
                "reconciler will return those jobs",
                len(self.results),
                len(self.hand_backs),
            )

    # --- helpers -------------------------------------------------------------------------------

    async def _in_db(self, function, *args):
        """Run database work in the executor's database thread."""

        def guarded():
            close_old_connections()
            try:
                return function(*args)
            except TRANSIENT_DATABASE_ERRORS:
                connection.close()
                raise

        return await self._loop.run_in_executor(self._db, guarded)

    async def _sleep(self, delay: float) -> None:
        if delay <= 0:
            return
        stop = asyncio.create_task(self._stopping.wait())
        wake = asyncio.create_task(self._wakeup.wait())
        await asyncio.wait({stop, wake}, timeout=delay, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        wake.cancel()

    async def _report_forever(self) -> None:
        while True:
            await asyncio.sleep(max(self.poll_interval, 1.0))
            logger.info(
                "executor %s in_flight=%d parked=%d",
                self.counts.line(),
                len(self.in_flight),
                len(self.parked),
            )


def _outcome_label(status: str) -> str:
    return {"succeeded": "succeeded", "dead": "dead", "cancelled": "cancelled"}.get(status, "retry")
