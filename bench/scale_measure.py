"""One round of the scale benchmark's figures on the database Django is pointed at: the tick
of 1,000 and of 10,000 due tasks, the claim of the tick's 1,000 jobs, the archiver's rate
and three API pages. Every figure is wall milliseconds (the archiver's: per 1,000 jobs)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from datetime import timedelta

from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from bench import scale_load
from bench.scheduler_tick import real_tick
from history.sql_store import SqlHistoryStore
from jobs.archive import archive_batch
from jobs.queue.claim import claim_jobs
from scheduler_site.pagination import encode_cursor
from tasks import schedule
from tasks.tick import run_tick

NOW = scale_load.T0 + timedelta(seconds=1)  # slot 0 due, slot 1 not
API_REPEATS = 5
ARCHIVE_BATCHES = 10
ARCHIVE_BATCH_SIZE = 500


def timed(action: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return (time.perf_counter() - started) * 1000, result


def pages_read() -> int:
    """InnoDB pages read from disk so far: server-wide (other clients count too), so a
    hint of where a figure waits on the disk rather than a count of its own."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'")
        return int(cursor.fetchone()[1])


def timed_reads(action: Callable[[], object]) -> tuple[float, int, object]:
    before = pages_read()
    elapsed, result = timed(action)
    return elapsed, pages_read() - before, result


def make_due() -> None:
    with connection.cursor() as cursor:
        scale_load.make_slot_due(cursor)


def tick_of_10000() -> int:
    schedule.next_run_after.cache_clear()  # as real_tick does: no warm cache between rounds
    return run_tick(now=NOW, batch_size=10_000).selected


def ticks_and_claim() -> dict[str, float]:
    make_due()
    tick_1000, reads_1000, selected = timed_reads(lambda: real_tick(NOW))
    assert selected == 1000, f"tick of 1,000 selected {selected}"
    claim, claim_reads, batch = timed_reads(
        lambda: claim_jobs(
            worker_id="scale", critical_limit=1000, normal_limit=1000, lookahead_seconds=0
        )
    )
    assert len(batch.jobs) == 1000, f"claimed {len(batch.jobs)} of the tick's 1,000 jobs"
    make_due()
    tick_10000, reads_10000, selected = timed_reads(tick_of_10000)
    assert selected == 10_000, f"tick of 10,000 selected {selected}"
    make_due()
    return {
        "tick 1,000 due": tick_1000,
        "claim 1,000": claim,
        "tick 10,000 due": tick_10000,
        "tick 1,000 due: pages read from disk": reads_1000,
        "tick 10,000 due: pages read from disk": reads_10000,
        "claim 1,000: pages read from disk": claim_reads,
    }


def archive_ms_per_1000() -> float:
    store, moved = SqlHistoryStore(), 0
    started = time.perf_counter()
    for _ in range(ARCHIVE_BATCHES):
        moved += archive_batch(now=timezone.now(), batch_size=ARCHIVE_BATCH_SIZE, store=store)[1]
    elapsed = (time.perf_counter() - started) * 1000
    assert moved == ARCHIVE_BATCHES * ARCHIVE_BATCH_SIZE, f"archived {moved}"
    return elapsed * 1000 / moved


def api_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def page_ms(client: APIClient, path: str, query: dict) -> float:
    """The median of API_REPEATS reads of one page (each must answer a full page)."""
    values = []
    for _ in range(API_REPEATS):
        elapsed, response = timed(lambda: client.get(path, query))
        assert response.status_code == 200, response.content[:300]
        assert len(response.json()["results"]) == 50, f"{path}: a short page"
        values.append(elapsed)
    return statistics.median(values)


def deep_cursor(tasks: int) -> str:
    """Tenant 0's tasks are every TENANTS-th; its list is newest first, so a cursor at the
    task a tenth of the way up the load is nine tenths of the way down its list."""
    depth = (tasks // 10) // scale_load.TENANTS * scale_load.TENANTS
    return encode_cursor({"after": str(scale_load.task_id(depth))})


def api_pages(client: APIClient, tasks: int) -> dict[str, float]:
    return {
        "tasks list, first page": page_ms(client, "/v1/tasks", {"limit": 50}),
        "tasks list, deep page": page_ms(
            client, "/v1/tasks", {"limit": 50, "cursor": deep_cursor(tasks)}
        ),
        "DLQ, first page": page_ms(client, "/v1/dlq", {"limit": 50}),
    }


def one_round(client: APIClient, tasks: int) -> dict[str, float]:
    figures = ticks_and_claim()
    figures["archive, per 1,000 jobs"] = archive_ms_per_1000()
    figures |= api_pages(client, tasks)
    return figures
