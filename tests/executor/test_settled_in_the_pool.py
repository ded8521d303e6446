"""Jobs settled in the call pool (their task paused or deleted since the claim): a slot one
of them frees never starts another job of a task stopped in the same round, and settled jobs
left in the pool's queue no longer count as waiting for a slot."""

from __future__ import annotations

import asyncio

from execution.executor_timers import Timers
from tests.executor.test_call_pool import SLOTS, SLOW, close, held, started_pool, wait_for


def test_a_slot_freed_by_a_settled_job_never_starts_a_job_of_a_task_stopped_with_it(endpoint):
    async def scenario() -> tuple[int, int]:
        pool = await started_pool()
        timers = Timers(pool=pool, outbox=pool.outbox)
        backlog = [held(endpoint.url(f"/slow/{SLOW}?a={n}"), "a") for n in range(8)]
        coming = held(endpoint.url("/ok?b"), "b", due_in=60)  # keeps a slot from tenant a
        timers.take([*backlog, coming], frozenset())
        await wait_for(lambda: pool.fired == SLOTS - 2, timeout=5)  # offered on the next turn
        started = pool.fired
        # One round reads all of them deleted, the coming job first: settling it frees the
        # slot kept for tenant b, which must not go to a job about to be settled too.
        stopped = {coming.job.task_id: "deleted"}
        stopped |= {h.job.task_id: "deleted" for h in backlog if h.job.key in _queued(pool)}
        timers.take([], None, stopped)
        fired_after = pool.fired
        await close(pool)
        return started, fired_after

    started, fired_after = asyncio.run(scenario())
    assert started == SLOTS - 2  # one slot kept for priority 0, one for tenant b
    assert fired_after == started


def test_settled_jobs_left_in_the_queue_do_not_count_as_waiting_for_a_slot(endpoint):
    async def scenario() -> tuple[int, int]:
        pool = await started_pool()
        timers = Timers(pool=pool, outbox=pool.outbox)
        backlog = [held(endpoint.url(f"/slow/{SLOW}?a={n}"), "a") for n in range(8)]
        timers.take(backlog, frozenset())
        await wait_for(lambda: pool.fired == SLOTS - 1, timeout=5)  # offered on the next turn
        before = pool.waiting_for_slot
        queued = _queued(pool)
        timers.take([], None, {h.job.task_id: "paused" for h in backlog if h.job.key in queued})
        after = pool.waiting_for_slot
        await close(pool)
        return before, after

    assert asyncio.run(scenario()) == (8 - (SLOTS - 1), 0)


def _queued(pool) -> set[str]:
    return {h.job.key for h in pool.waiting}
