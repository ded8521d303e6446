"""The executor's timers: a parked job is offered to the call pool at its instant, never
before it, even on a loop whose clock runs ahead of the wall clock."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from execution.executor_timers import Timers
from tests.executor.test_call_pool import close, held, started_pool, wait_for


class FastClockLoop(asyncio.SelectorEventLoop):
    """A loop whose clock gains a fifth on the wall clock, as a slewed clock may: a timer
    set for one second runs out after 0.83 s of wall time."""

    def __init__(self) -> None:
        super().__init__()
        self._start = super().time()

    def time(self) -> float:
        return self._start + (super().time() - self._start) * 1.2


def offered_at(endpoint, due_in: float) -> tuple[datetime, datetime]:
    async def scenario() -> tuple[datetime, datetime]:
        pool = await started_pool()
        timers = Timers(pool=pool, outbox=pool.outbox)
        seen: list[datetime] = []
        offer = pool.offer
        pool.offer = lambda h: (seen.append(datetime.now(UTC)), offer(h))
        job = held(endpoint.url("/ok"), "a", due_in=due_in)
        timers.take([job], frozenset())
        await wait_for(lambda: seen, timeout=5)
        await close(pool)
        return job.job.next_attempt_at, seen[0]

    loop = FastClockLoop()
    try:
        return loop.run_until_complete(scenario())
    finally:
        loop.close()


def test_a_parked_job_is_offered_at_its_instant_on_a_fast_clock(endpoint):
    due, offered = offered_at(endpoint, due_in=1.0)
    assert due <= offered


def test_a_parked_job_is_offered_soon_after_its_instant(endpoint):
    due, offered = offered_at(endpoint, due_in=0.5)
    assert (offered - due).total_seconds() < 0.1
