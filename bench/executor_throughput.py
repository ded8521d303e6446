"""Executor throughput against a bare aiohttp loop, in one run.

N jobs due now, Debian's nginx as the endpoint; prints the end-to-end jobs/s of 1 and 2 executor
processes, the calls/s of a bare aiohttp loop with the same concurrency against the same
endpoint, and their ratio.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/executor_throughput.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import aiohttp  # noqa: E402
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.burst import wait_for_calls  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.delivery import Delivery, LogCounter, delivery, read_calls  # noqa: E402
from bench.harness import (  # noqa: E402
    free_port,
    insert_due_jobs,
    start_endpoint,
    start_manage,
    stop,
    tenant_with_room,
    wait_for_succeeded,
)
from bench.report import started_curve_png, table  # noqa: E402
from jobs.models import Job  # noqa: E402


async def bare_loop(url: str, count: int, concurrency: int) -> float:
    """calls/s of plain aiohttp POSTs with `concurrency` in flight."""
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        remaining = iter(range(count))

        async def worker() -> None:
            for _ in remaining:
                async with session.post(url, data=b"{}") as response:
                    await response.read()

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return count / (time.perf_counter() - started)


def executor_run(
    processes: int, url: str, count: int, concurrency: int, logs: Path
) -> tuple[float, Delivery]:
    """jobs/s end to end, and what the endpoint saw (start delay from each job's due time)."""
    Job.objects.all().delete()
    executors = [
        start_manage(
            [
                "run_executor",
                "--concurrency",
                str(concurrency),
                "--poll-interval",
                "0.5",
                "--worker-id",
                f"bench-{n}",
            ],
            logs / f"executor-{n}.log",
        )
        for n in range(processes)
    ]
    time.sleep(3)  # let them start and idle
    tenant = tenant_with_room()
    counter = LogCounter(logs / "calls.csv")
    insert_due_jobs(tenant, url, count)
    connection.close()
    started = time.monotonic()
    try:
        wait_for_calls(f"{processes} executor(s)", counter, count, time.time())
        wait_for_succeeded(count, timeout=600)
        seconds = time.monotonic() - started
    finally:
        for executor in executors:
            stop(executor)
    groups = {str(job): "rest" for job in Job.objects.values_list("id", flat=True)}
    calls = [call for call in read_calls(logs / "calls.csv") if call[1] in groups]
    return count / seconds, delivery(f"{processes} executor(s)", calls, groups, count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--png", default="bench/executor.png")
    args = parser.parse_args()
    use_fresh_database("bench_exec")
    port = free_port()
    logs = Path(tempfile.mkdtemp(prefix="bench-executor-"))
    endpoint = start_endpoint(port, logs / "calls.csv")
    url = f"http://127.0.0.1:{port}/hook"
    try:
        bare = asyncio.run(bare_loop(url, args.jobs, args.concurrency))
        one, seen_one = executor_run(1, url, args.jobs, args.concurrency, logs)
        two, seen_two = executor_run(2, url, args.jobs, args.concurrency, logs)
        bare_again = asyncio.run(bare_loop(url, args.jobs, args.concurrency))
    finally:
        stop(endpoint)
    reference = (bare + bare_again) / 2
    print(machine_line())
    print(f"{args.jobs} jobs due now, concurrency {args.concurrency}, nginx endpoint")
    rows = [
        ["bare aiohttp loop", round(bare), "calls/s", "", ""],
        ["1 executor process", round(one), "jobs/s", one / reference, seen_one.lost],
        ["2 executor processes", round(two), "jobs/s", two / reference, seen_two.lost],
        ["bare aiohttp loop again", round(bare_again), "calls/s", "", ""],
    ]
    print(table(["variant", "rate", "", "/ bare", "lost"], rows))
    print(f"ratio: {max(one, two) / reference:.2f}   (best executor / bare loop, goal >= 0.6)")
    runs = {seen.name: seen.delays for seen in (seen_one, seen_two)}
    started_curve_png(Path(args.png), f"{args.jobs:,} jobs due now: calls started", runs)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
