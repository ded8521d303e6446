"""The executor's timers: a parked job is offered to the call pool at its instant, never
before it, even on a loop whose clock runs ahead of the wall clock; but a wall clock that
fell more than a second behind (stepped back) does not hold the calls."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from execution.executor_timers import Timers
from tests.executor.test_call_pool import close, held, started_pool, wait_for


class FastClockLoop(asyncio.SelectorEventLoop):
    """A loop whose clock gains on the wall clock (by a fifth, as a slewed wall clock may
    lag: a timer set for one second runs out after 0.83 s of wall time)."""

    def __init__(self, rate: float = 1.2) -> None:
        super().__init__()
        self._start, self._rate = super().time(), rate

    def time(self) -> float:
        return self._start + (super().time() - self._start) * self._rate


def offered_at(
    endpoint, due_in: float, rate: float = 1.2, horizon: float = 5.0
) -> tuple[datetime, datetime]:
    async def scenario() -> tuple[datetime, datetime]:
        pool = await started_pool()
        timers = Timers(pool=pool, outbox=pool.outbox, horizon_seconds=horizon)
        seen: list[datetime] = []
        offer = pool.offer
        pool.offer = lambda h: (seen.append(datetime.now(UTC)), offer(h))
        job = held(endpoint.url("/ok"), "a", due_in=due_in)
        timers.take([job], frozenset())
        await wait_for(lambda: seen, timeout=10)
        await close(pool)
        return job.job.next_attempt_at, seen[0]

    loop = FastClockLoop(rate)
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


def test_a_wall_clock_stepped_back_over_a_second_does_not_hold_the_calls(endpoint):
    # At three times the wall's pace, the timer for 3 s runs out 2 s before the instant.
    due, offered = offered_at(endpoint, due_in=3.0, rate=3.0)
    assert 1.0 < (due - offered).total_seconds() < 2.5


def test_a_job_due_beyond_the_claim_horizon_waits_at_most_the_horizon_and_a_second(endpoint):
    # Claimed for 8 s ahead with a horizon of 0.5 s: by the database's clock it was due
    # within 0.5 s, so this machine's clock is behind, and the call goes after 1.5 s.
    due, offered = offered_at(endpoint, due_in=8.0, rate=1.0, horizon=0.5)
    waited = (offered - due).total_seconds() + 8.0  # from the claim (the pool's start aside)
    assert 1.4 < waited < 2.2  # cut at 1.5 s, not waited again once fired
    assert offered < due


def test_a_wait_cut_at_the_claim_horizon_is_not_waited_on_to_the_instant(endpoint):
    # Claimed 2.2 s ahead under a 0.5 s horizon: the timer is cut to 1.5 s, and when it
    # fires the instant is still 0.7 s away by this machine's clock. The cut wins over the
    # rule that a call never starts early: the call goes then, not 0.7 s later.
    due, offered = offered_at(endpoint, due_in=2.2, rate=1.0, horizon=0.5)
    assert 1.4 < (offered - due).total_seconds() + 2.2 < 2.05  # from the claim
    assert offered < due
