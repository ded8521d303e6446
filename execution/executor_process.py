"""The executor process: claim due jobs, fire each on its second, record every result.

One asyncio event loop makes the calls (aiohttp; thousands in flight cost no threads) and
keeps each claimed job on a timer until its second. All database work runs in one thread
beside the loop, with its own connection, in batches: claims of up to the free capacity,
result writes of many results per statement. The loop never waits on MySQL.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import close_old_connections, connection

from execution.address_policy import default_policy
from execution.delivery import CallOutcome, Delivery
from execution.runtime import TRANSIENT_DATABASE_ERRORS, Backoff
from jobs import queue
from jobs.queue import ClaimBatch, ClaimedJob, JobResult
from tasks.secrets import secret_values

logger = logging.getLogger("execution.executor")

MISSING_SECRET = "secret_ref {name!r} names no secret of this tenant"
STOPPED = "the executor stopped before the call finished"


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
        self._results_ready: asyncio.Event | None = None
        self._stop_requested = False
        self._closing = False
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
        return len(self.parked) + len(self.in_flight)

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
        self._results_ready = asyncio.Event()
        if self._stop_requested:
            self._stopping.set()
        await self.delivery.start()
        writer = asyncio.create_task(self._write_results_forever())
        reporter = asyncio.create_task(self._report_forever())
        try:
            await self._claim_forever()
        finally:
            reporter.cancel()
            await self._shut_down(writer)

    # --- claiming ----------------------------------------------------------------------------

    async def _claim_forever(self) -> None:
        backoff = Backoff()
        while not self._stopping.is_set():
            try:
                claimed, full = await self._claim_once()
                backoff.reset()
                self.last_success_at = time.time()
                delay = 0 if full else self.poll_interval
            except TRANSIENT_DATABASE_ERRORS as exc:
                delay = backoff.next_delay()
                logger.warning("claim failed (%s); retrying in %.1fs", exc, delay)
            await self._sleep(delay)

    async def _claim_once(self) -> tuple[int, bool]:
        free = self.concurrency - self.busy
        critical_limit = min(free, self.claim_batch)
        normal_limit = min(self.concurrency - self.reserved_for_critical - self.busy,
                           self.claim_batch)
        if critical_limit <= 0:
            return 0, False
        batch = await self._in_db(self._claim_with_secrets, critical_limit, max(0, normal_limit))
        self.saturated_tenants = batch.saturated_tenants
        for parked in batch.jobs:
            self._park(parked)
        self.counts.claimed += len(batch.jobs)
        full = len(batch.jobs) >= min(critical_limit, max(normal_limit, 1)) or batch.held_back
        return len(batch.jobs), bool(full)

    def _claim_with_secrets(self, critical_limit: int, normal_limit: int) -> ClaimBatch:
        batch = queue.claim_jobs(
            worker_id=self.worker_id,
            critical_limit=critical_limit,
            normal_limit=normal_limit,
            lookahead_seconds=self.poll_interval,
            skip_tenants=self.saturated_tenants,
        )
        refs = {(job.tenant_id, job.secret_ref) for job in batch.jobs if job.secret_ref}
        values = {(str(t), n): v for (t, n), v in secret_values(refs=refs).items()}
        batch.jobs = [
            ParkedJob(
                job,
                values.get((job.tenant_id, job.secret_ref)) if job.secret_ref else None,
                MISSING_SECRET.format(name=job.secret_ref)
                if job.secret_ref and (job.tenant_id, job.secret_ref) not in values
                else None,
            )
            for job in batch.jobs
        ]
        return batch

    def _park(self, parked: ParkedJob) -> None:
        delay = (parked.job.next_attempt_at - datetime.now(UTC)).total_seconds()
        self.parked[parked.job.key] = parked
        if delay <= 0:
            self._fire(parked.job.key)
        else:
            parked.timer = self._loop.call_later(delay, self._fire, parked.job.key)

    # --- firing ------------------------------------------------------------------------------

    def _fire(self, key: str) -> None:
        parked = self.parked.pop(key, None)
        if parked is None:
            return
        task = asyncio.create_task(self._execute(parked))
        self.in_flight.add(task)
        task.add_done_callback(self._call_done)
        self.counts.fired += 1

    def _call_done(self, task: asyncio.Task) -> None:
        self.in_flight.discard(task)
        if self.concurrency - self.busy >= max(1, self.concurrency // 10):
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
        self.results.append(
            queue.outcome(
                job,
                succeeded=outcome.succeeded,
                now=datetime.now(UTC),
                retry_after=outcome.retry_after,
                http_status=outcome.http_status,
                error=outcome.error,
                response_body=outcome.response_body,
                duration_ms=outcome.duration_ms,
            )
        )
        if len(self.results) >= self.result_batch:
            self._results_ready.set()

    # --- writing results -------------------------------------------------------------------

    async def _write_results_forever(self) -> None:
        backoff = Backoff(base=0.2, cap=10)
        while not self._closing:
            try:
                await asyncio.wait_for(self._results_ready.wait(), timeout=0.05)
            except TimeoutError:
                pass
            self._results_ready.clear()
            while self.results and not self._closing:
                batch = self.results[: self.result_batch]
                try:
                    await self._write(batch)
                    backoff.reset()
                except TRANSIENT_DATABASE_ERRORS as exc:
                    delay = backoff.next_delay()
                    logger.warning("result write failed (%s); %d results kept, retrying in "
                                   "%.1fs", exc, len(self.results), delay)
                    await asyncio.sleep(delay)
                    break

    async def _write(self, batch: list[JobResult]) -> None:
        applied = await self._in_db(
            lambda: queue.record_results(worker_id=self.worker_id, results=batch)
        )
        del self.results[: len(batch)]
        self.counts.written += applied
        self.counts.dropped += len(batch) - applied
        if applied < len(batch):
            logger.info("dropped %d stale results (their job was claimed again)",
                        len(batch) - applied)

    # --- stopping ------------------------------------------------------------------------------

    async def _shut_down(self, writer: asyncio.Task) -> None:
        """Stop claiming, hand back what was never fired, let calls in flight finish within
        the grace period, write every result, then close."""
        await self._hand_back_parked()
        if self.in_flight:
            done, pending = await asyncio.wait(self.in_flight, timeout=self.grace_seconds)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        self._closing = True
        self._results_ready.set()
        await writer
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
                await self._write(self.results[: self.result_batch])
            except TRANSIENT_DATABASE_ERRORS as exc:
                logger.warning("final result write failed (%s); retrying", exc)
                await asyncio.sleep(backoff.next_delay())
        if self.results:
            logger.warning("%d results not written; the reconciler will retry those jobs",
                           len(self.results))

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
            logger.info("executor %s in_flight=%d parked=%d", self.counts.line(),
                        len(self.in_flight), len(self.parked))
