"""Executor throughput and CPU per job against a bare aiohttp loop, in one run.

N jobs due now, Debian's nginx as the endpoint. Alternated in one run: a bare aiohttp loop
(on asyncio's standard loop and on uvloop's), 1 executor process on each loop, 2 executor
processes on uvloop (the executor's default), then the bare loops again. Prints each rate,
the CPU seconds per call of the bare loop's process and of the executor processes (from
/proc, every thread: the claim and the results are in it), and the issue's ratios.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/executor_throughput.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
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
from bench.cpu import CpuMeter  # noqa: E402
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
from execution.loop_thread import new_event_loop  # noqa: E402
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


def bare_run(loop: str, url: str, count: int, concurrency: int) -> tuple[float, float]:
    """The bare loop on `loop` ("asyncio" or "uvloop"): calls/s, CPU seconds per call of this
    process (nothing else runs in it meanwhile)."""
    os.environ["EVENT_LOOP"] = loop
    cpu = time.process_time()
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        rate = runner.run(bare_loop(url, count, concurrency))
    return rate, (time.process_time() - cpu) / count


def executor_run(
    processes: int, loop: str, url: str, count: int, concurrency: int, logs: Path
) -> tuple[float, float, Delivery]:
    """jobs/s end to end, the executors' CPU seconds per job, and what the endpoint saw."""
    Job.objects.all().delete()
    os.environ["EVENT_LOOP"] = loop  # inherited by the executors started here
    executors = [
        start_manage(
            ["run_executor", "--concurrency", str(concurrency), "--poll-interval", "0.5"]
            + ["--worker-id", f"bench-{n}"],
            logs / f"executor-{n}.log",
        )
        for n in range(processes)
    ]
    time.sleep(3)  # let them start and idle
    meters = [CpuMeter(executor.pid) for executor in executors]
    for meter in meters:
        meter.start()
    tenant = tenant_with_room()
    counter = LogCounter(logs / "calls.csv")
    insert_due_jobs(tenant, url, count)
    connection.close()
    started = time.monotonic()
    try:
        wait_for_calls(f"{processes} executor(s), {loop}", counter, count, time.time())
        wait_for_succeeded(count, timeout=600)
        seconds = time.monotonic() - started
        cpu = sum(meter.stop() for meter in meters) / count
    finally:
        for executor in executors:
            stop(executor)
    groups = {str(job): "rest" for job in Job.objects.values_list("id", flat=True)}
    calls = [call for call in read_calls(logs / "calls.csv") if call[1] in groups]
    name = f"{processes} executor(s), {loop}"
    return count / seconds, cpu, delivery(name, calls, groups, count)


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
    n, c = args.jobs, args.concurrency
    try:
        bare = {loop: [bare_run(loop, url, n, c)] for loop in ("asyncio", "uvloop")}
        runs = [(1, "asyncio"), (1, "uvloop"), (2, "uvloop")]
        executed = {run: executor_run(*run, url, n, c, logs) for run in runs}
        for loop in ("uvloop", "asyncio"):
            bare[loop].append(bare_run(loop, url, n, c))
    finally:
        stop(endpoint)
    report(args, bare, executed)


def report(args: argparse.Namespace, bare: dict, executed: dict) -> None:
    # The reference is the bare loop as aiohttp runs it by default, on asyncio's own loop.
    rate = {loop: sum(r for r, _ in runs) / len(runs) for loop, runs in bare.items()}
    cpu = {loop: sum(c for _, c in runs) / len(runs) for loop, runs in bare.items()}
    print(machine_line())
    print(f"{args.jobs} jobs due now, concurrency {args.concurrency}, nginx endpoint")
    rows = []
    for loop, runs in bare.items():
        for r, c in runs:
            rows.append([f"bare aiohttp loop, {loop}", round(r), "calls/s", "", 1000 * c, "", ""])
    for (processes, loop), (r, c, seen) in executed.items():
        name = f"{processes} executor process{'es' if processes > 1 else ''}, {loop}"
        ratios = [r / rate["asyncio"], 1000 * c, c / cpu["asyncio"], seen.lost]
        rows.append([name, round(r), "jobs/s", *ratios])
    headers = ["variant", "rate", "", "/ bare", "CPU ms/call", "CPU / bare", "lost"]
    print(table(headers, rows))
    best = max(executed, key=lambda run: executed[run][0])
    one = executed[(1, "uvloop")]
    print(
        f"ratio executor/bare: {executed[best][0] / rate['asyncio']:.2f}"
        f"   (best executor, {best[0]} process(es) on {best[1]}, / the bare aiohttp loop on"
        f" asyncio, goal >= 0.9; / the bare loop on uvloop:"
        f" {executed[best][0] / rate['uvloop']:.2f})"
    )
    print(
        f"ratio CPU per job/bare call: {one[1] / cpu['asyncio']:.2f}"
        f"   (1 executor on uvloop / the bare aiohttp loop on asyncio, goal <= 1.2;"
        f" / the bare loop on uvloop: {one[1] / cpu['uvloop']:.2f})"
    )
    curves = {seen.name: seen.delays for _, _, seen in executed.values()}
    started_curve_png(Path(args.png), f"{args.jobs:,} jobs due now: calls started", curves)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
