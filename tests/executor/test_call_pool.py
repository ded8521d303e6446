"""The call pool's admission, on a real event loop against a real slow endpoint: tenants
take turns for the slots, and none holds the last of them while another's jobs are due."""

from __future__ import annotations

import asyncio
import time

from execution.call_pool import CallPool
from execution.delivery import Delivery
from execution.executor_outbox import Outbox
from execution.executor_timers import Timers
from execution.held_job import HeldJob
from tests.executor.claimed_jobs import claimed_job
from tests.executor.conftest import LOCAL

SLOTS = 4  # the executor keeps one of them for priority 0
SLOW = 3.0  # seconds each of the backlog's calls takes


def held(url: str, tenant: str, *, due_in: float = 0.0, priority: int = 5) -> HeldJob:
    job = claimed_job(url, tenant=tenant, due_in=due_in, priority=priority)
    return HeldJob(job, None, None)


async def started_pool() -> CallPool:
    pool = CallPool(
        delivery=Delivery(policy=LOCAL, concurrency=SLOTS),
        outbox=Outbox(),
        concurrency=SLOTS,
        reserved_for_critical=1,
        on_result=lambda waiting: None,
        on_drained=lambda: None,
    )
    await pool.delivery.start()
    return pool


async def wait_for(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


async def close(pool: CallPool) -> None:
    pool.give_back_waiting()
    await pool.finish(0)
    await pool.delivery.close()


def arrival_tenants(endpoint) -> list[str]:
    return [call.path.split("=")[1][0] for call in sorted(endpoint.received, key=lambda c: c.at)]


def test_another_tenants_call_starts_at_once_beside_a_tenants_slow_backlog(endpoint):
    async def scenario() -> float:
        pool = await started_pool()
        timers = Timers(pool=pool, outbox=pool.outbox)
        backlog = [held(endpoint.url(f"/slow/{SLOW}?a={n}"), "a") for n in range(8)]
        other = held(endpoint.url("/ok?b"), "b", due_in=0.3)
        begun = time.time()
        timers.take([*backlog, other], frozenset())
        await wait_for(lambda: endpoint.requests_for("/ok"), timeout=SLOW * 4)
        await close(pool)
        return endpoint.requests_for("/ok")[0].at - begun

    assert asyncio.run(scenario()) < SLOW / 3


def test_waiting_jobs_of_three_tenants_start_in_turns(endpoint):
    async def scenario() -> None:
        pool = await started_pool()
        for tenant in "abc":
            for n in range(4):
                pool.offer(held(endpoint.url(f"/slow/1?t={tenant}{n}"), tenant))
        await wait_for(lambda: len(endpoint.received) >= 6, timeout=10)
        await close(pool)

    asyncio.run(scenario())
    first, second = arrival_tenants(endpoint)[:3], arrival_tenants(endpoint)[3:6]
    assert first == ["a", "a", "a"]  # alone so far: its calls took every slot
    assert sorted(second) == ["a", "b", "c"]


def test_a_tenant_alone_uses_every_slot(endpoint):
    async def scenario() -> tuple[int, int]:
        pool = await started_pool()
        for n in range(8):
            pool.offer(held(endpoint.url(f"/slow/{SLOW}?a={n}"), "a"))
        normal = len(pool.in_flight)
        for n in range(2):
            pool.offer(held(endpoint.url(f"/slow/{SLOW}?c={n}"), "a", priority=0))
        every = len(pool.in_flight)
        await close(pool)
        return normal, every

    assert asyncio.run(scenario()) == (SLOTS - 1, SLOTS)


def test_the_slot_kept_for_another_tenant_is_used_once_its_job_is_gone(endpoint):
    async def scenario() -> tuple[int, int]:
        pool = await started_pool()
        coming = held(endpoint.url("/ok?b"), "b", due_in=60)
        pool.expect(coming)
        for n in range(8):
            pool.offer(held(endpoint.url(f"/slow/{SLOW}?a={n}"), "a"))
        kept = len(pool.in_flight)
        pool.forget(coming)  # e.g. its task was deleted before its second
        after = len(pool.in_flight)
        await close(pool)
        return kept, after

    assert asyncio.run(scenario()) == (SLOTS - 2, SLOTS - 1)
