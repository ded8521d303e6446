"""The executor's timers: each claimed job waits for its second, then goes to the call pool.

Jobs are claimed a few seconds ahead of their time (the round's horizon), so when a burst's
second comes only the calls and their result writes remain.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from execution import metrics
from execution.call_pool import CallPool, outcome_label
from execution.executor_outbox import Outbox
from execution.held_job import HeldJob
from jobs.models import JobStatus
from jobs.queue import JobResult
from tasks.models import TaskStatus


class Timers:
    def __init__(self, *, pool: CallPool, outbox: Outbox) -> None:
        self.pool = pool
        self.outbox = outbox
        self.parked: dict[str, HeldJob] = {}

    def take(self, claimed: list[HeldJob], inactive_tenants: frozenset[str] | None) -> None:
        """Jobs of one claim (in the loop's thread), with who was stopped at that claim."""
        if inactive_tenants is not None:
            self.pool.inactive_tenants = inactive_tenants
        loop = asyncio.get_running_loop()
        now = datetime.now(UTC)
        for held in claimed:
            if self._settled_by_its_task(held):
                continue
            delay = (held.job.next_attempt_at - now).total_seconds()
            if delay <= 0:
                self.pool.offer(held)
            else:
                self.parked[held.job.key] = held
                held.timer = loop.call_later(delay, self._fire, held.job.key)

    def give_back_all(self) -> None:
        """On stop: every job not yet called goes back, charging no attempt."""
        for held in self.parked.values():
            held.timer.cancel()
            self.outbox.give_back(held.job)
        self.parked.clear()
        self.pool.give_back_waiting()

    def _fire(self, key: str) -> None:
        held = self.parked.pop(key, None)
        if held is not None:
            self.pool.offer(held)

    def _settled_by_its_task(self, held: HeldJob) -> bool:
        """A task deleted or paused since the scheduler made the job decides it here."""
        job = held.job
        if job.task_status == TaskStatus.DELETED:
            now = datetime.now(UTC)
            result = JobResult(
                job.key, job.attempt, JobStatus.CANCELLED, finished_at=now, error="task deleted"
            )
            metrics.OUTCOMES.labels(job.tenant_id, outcome_label(result.status)).inc()
            self.pool.on_result(self.outbox.add_result(result))
            return True
        if job.task_status == TaskStatus.PAUSED:
            self.outbox.give_back(job, JobStatus.HELD)  # waits with its task
            return True
        return False
