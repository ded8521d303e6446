"""The executor process: claim due jobs, fire each on its second, record every result.

One asyncio event loop makes the calls (aiohttp; thousands in flight cost no threads) and
keeps each claimed job on a timer until its second. All database work runs in one thread
beside the loop, with its own connection, in batches: claims of up to the free capacity,
result writes of many results per statement. The loop never waits on MySQL.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import close_old_connections, connection

from execution import metrics
from execution.address_policy import default_policy
from execution.delivery import CallOutcome, Delivery
from execution.runtime import TRANSIENT_DATABASE_ERRORS, Backoff
from jobs import queue
from jobs.queue import ClaimedJob, JobResult
from tasks.secrets import secret_values

logger = logging.getLogger("execution.executor")

MISSING_SECRET = "secret_ref {name!r} names no secret of this tenant"
STOPPED = "the executor stopped before the call finished"
RESULT_FLUSH_SECONDS = 0.05
# Jobs due within two poll intervals are claimed, so a claim that takes long under load
# still parks a job before its second instead of after it.
CLAIM_AHEAD_INTERVALS = 2


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
        self.reserved_for_critical = max(1, int(concurrency * critical_share))
        self.grace_seconds = grace_seconds
        self.claim_batch = claim_batch
        self.prefetch = max(1, concurrency // 2)
        self.ready: list[tuple[int, datetime, int, str]] = []  # due, waiting for a slot
        self._ready_order = 0
        self.result_batch = result_batch
        self.delivery = delivery or Delivery(policy=default_policy(), concurrency=concurrency)
        self.counts = ExecutorCounts()
        self.parked: dict[str, ParkedJob] = {}
        self.in_flight: set[asyncio.Task] = set()
        self.results: list[JobResult] = []
        self.saturated_tenants: frozenset[str] = frozenset()
        self.last_success_at: float | None = None
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
        a small prefetch, so a slot that frees up never waits for the next claim."""
        return self.concurrency + self.prefetch

    def health(self) -> dict:
        age = None if self.last_success_at is None else time.time() - self.last_success_at
        return {
            "process": self.name,
            "healthy": age is not None and age < max(30.0, 5 * self.poll_interval),
            "in_flight": len(self.in_flight),
            "parked": len(self.parked),
        }

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

    # --- the database side: results out, claims in, one transaction per round -----------

    async def _exchange_forever(self) -> None:
        backoff = Backoff()
        while not self._stopping.is_set():
            try:
                busy_again = await self._exchange_once(claim=True)
                backoff.reset()
                self.last_success_at = time.time()
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
        return min(self.poll_interval, RESULT_FLUSH_SECONDS) if self.results else self.poll_interval

    async def _exchange_once(self, *, claim: bool) -> bool:
        """One round: write waiting results, claim up to the free capacity. Returns whether
        another round should follow at once (a full claim or a backlog of results)."""
        results = self.results[: self.result_batch]
        critical_limit, normal_limit = self._claim_limits() if claim else (0, 0)
        if not results and critical_limit <= 0:
            return False
        started = time.perf_counter()
        applied, batch = await self._in_db(
            self._exchange_in_db, results, critical_limit, normal_limit
        )
        metrics.EXCHANGE_SECONDS.observe(time.perf_counter() - started)
        del self.results[: len(results)]
        self.counts.written += applied
        self.counts.dropped += len(results) - applied
        metrics.DROPPED_RESULTS.inc(len(results) - applied)
        if applied < len(results):
            logger.info(
                "dropped %d stale results (their job was claimed again)", len(results) - applied
            )
        self.saturated_tenants = batch.saturated_tenants
        for parked in batch.jobs:
            self._park(parked)
        self.counts.claimed += len(batch.jobs)
        claimed_all = critical_limit > 0 and len(batch.jobs) >= max(
            1, min(critical_limit, max(normal_limit, 1))
        )
        return bool(claimed_all or batch.held_back or len(self.results) >= self.result_batch)

    def _claim_limits(self) -> tuple[int, int]:
        critical = min(self.capacity - self.busy, self.claim_batch)
        normal = min(self.capacity - self.reserved_for_critical - self.busy, self.claim_batch)
        return max(0, critical), max(0, normal)

    def _exchange_in_db(self, results, critical_limit, normal_limit):
        applied, batch = queue.exchange(
            worker_id=self.worker_id,
            results=results,
            critical_limit=critical_limit,
            normal_limit=normal_limit,
            lookahead_seconds=self.poll_interval * CLAIM_AHEAD_INTERVALS,
            skip_tenants=self.saturated_tenants,
        )
        batch.jobs = self._with_secrets(batch.jobs)
        return applied, batch

    def _with_secrets(self, jobs: list[ClaimedJob]) -> list[ParkedJob]:
        refs = {(job.tenant_id, job.secret_ref) for job in jobs if job.secret_ref}
        values = secret_values(refs=refs)
        parked = []
        for job in jobs:
            ref = (job.tenant_id, job.secret_ref)
            missing = job.secret_ref is not None and ref not in values
            parked.append(
                ParkedJob(
                    job,
                    values.get(ref) if job.secret_ref else None,
                    MISSING_SECRET.format(name=job.secret_ref) if missing else None,
                )
            )
        return parked

    def _park(self, parked: ParkedJob) -> None:
        delay = (parked.job.next_attempt_at - datetime.now(UTC)).total_seconds()
        self.parked[parked.job.key] = parked
        if delay <= 0:
            self._fire(parked.job.key)
        else:
            parked.timer = self._loop.call_later(delay, self._fire, parked.job.key)

    # --- firing ------------------------------------------------------------------------------

    def _fire(self, key: str) -> None:
        """The job's second has come: call now, or queue for the next free slot (the most
        urgent priority first)."""
        parked = self.parked.get(key)
        if parked is None:
            return
        if len(self.in_flight) >= self.concurrency:
            self._ready_order += 1
            job = parked.job
            heapq.heappush(self.ready, (job.priority, job.next_attempt_at, self._ready_order, key))
            return
        self._start_call(key)

    def _start_call(self, key: str) -> None:
        parked = self.parked.pop(key)
        job = parked.job
        delay = (datetime.now(UTC) - job.next_attempt_at).total_seconds()
        metrics.START_DELAY.labels(str(job.priority)).observe(max(0.0, delay))
        task = asyncio.create_task(self._execute(parked))
        self.in_flight.add(task)
        task.add_done_callback(self._call_done)
        self.counts.fired += 1

    def _call_done(self, task: asyncio.Task) -> None:
        self.in_flight.discard(task)
        while self.ready and len(self.in_flight) < self.concurrency:
            key = heapq.heappop(self.ready)[3]
            if key in self.parked:
                self._start_call(key)
        if self.capacity - self.busy >= max(1, self.concurrency // 10):
            self._wakeup.set()

    async def _execute(self, parked: ParkedJob) -> None:
        job = parked.job
        try:
            if parked.error:
                outcome = CallOutcome(False, None, parked.error, None, 0)
            else:
                outcome = await self.delivery.call(job, authorization=parked.authorization)
        except asyncio.CancelledError:
            outcome = CallOutcome(False, None, STOPPED, None, 0)
        self._add_result(job, outcome)

    def _add_result(self, job: ClaimedJob, outcome: CallOutcome) -> None:
        if outcome.succeeded:
            self.counts.succeeded += 1
        else:
            self.counts.failed += 1
        result = queue.outcome(
            job,
            succeeded=outcome.succeeded,
            now=datetime.now(UTC),
            retry_after=outcome.retry_after,
            http_status=outcome.http_status,
            error=outcome.error,
            response_body=outcome.response_body,
            duration_ms=outcome.duration_ms,
        )
        self.results.append(result)
        metrics.OUTCOMES.labels(job.tenant_id, _outcome_label(result.status)).inc()
        if len(self.results) >= self.result_batch:
            self._wakeup.set()

    # --- stopping ------------------------------------------------------------------------------

    async def _shut_down(self) -> None:
        """Stop claiming, hand back what was never fired, let calls in flight finish within
        the grace period, write every result, then close."""
        await self._hand_back_parked()
        if self.in_flight:
            _, pending = await asyncio.wait(self.in_flight, timeout=self.grace_seconds)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        await self._flush_results(deadline=time.monotonic() + max(self.grace_seconds, 10))
        await self.delivery.close()
        await self._in_db(lambda: connection.close())
        self._db.shutdown(wait=True)
        logger.info("executor stopped: %s", self.counts.line())

    async def _hand_back_parked(self) -> None:
        for parked in self.parked.values():
            if parked.timer is not None:
                parked.timer.cancel()
        jobs = [(p.job.key, p.job.attempt) for p in self.parked.values()]
        self.parked.clear()
        self.ready.clear()
        backoff = Backoff(base=0.2, cap=5)
        deadline = time.monotonic() + self.grace_seconds
        while jobs and time.monotonic() < deadline:
            try:
                handed = await self._in_db(
                    lambda: queue.hand_back(worker_id=self.worker_id, jobs=jobs)
                )
                self.counts.handed_back += handed
                return
            except TRANSIENT_DATABASE_ERRORS as exc:
                logger.warning("hand-back failed (%s); retrying", exc)
                await asyncio.sleep(backoff.next_delay())
        if jobs:
            logger.warning("%d claimed jobs not handed back; their leases will expire", len(jobs))

    async def _flush_results(self, deadline: float) -> None:
        backoff = Backoff(base=0.2, cap=5)
        while self.results and time.monotonic() < deadline:
            try:
                await self._exchange_once(claim=False)
            except TRANSIENT_DATABASE_ERRORS as exc:
                logger.warning("final result write failed (%s); retrying", exc)
                await asyncio.sleep(backoff.next_delay())
        if self.results:
            logger.warning(
                "%d results not written; the reconciler will retry those jobs", len(self.results)
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
        self._wakeup.clear()
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
    return {"succeeded": "succeeded", "dead": "dead"}.get(status, "retry")
