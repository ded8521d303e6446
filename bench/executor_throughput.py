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
from pyreqwest.client import ClientBuilder  # noqa: E402

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


async def bare_reqwest_loop(url: str, count: int, concurrency: int) -> float:
    """calls/s of plain pyreqwest POSTs (the executor's client) with `concurrency` in flight."""
    async with ClientBuilder().no_proxy().follow_redirects(False).build() as client:
        remaining = iter(range(count))

        async def worker() -> None:
            for _ in remaining:
                async with client.post(url).body_bytes(b"{}").build_streamed() as response:
                    await response.body_reader.bytes()

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return count / (time.perf_counter() - started)


BARE = {"aiohttp": bare_loop, "pyreqwest": bare_reqwest_loop}


def bare_run(
    variant: tuple[str, str], url: str, count: int, concurrency: int
) -> tuple[float, float]:
    """The bare loop of a (client, event loop): calls/s, CPU seconds per call of this process
    (nothing else runs in it meanwhile; pyreqwest's own threads count too)."""
    client, os.environ["EVENT_LOOP"] = variant
    cpu = time.process_time()
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        rate = runner.run(BARE[client](url, count, concurrency))
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


BARE_VARIANTS = [("aiohttp", "asyncio"), ("aiohttp", "uvloop"), ("pyreqwest", "uvloop")]


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
        bare = {variant: [bare_run(variant, url, n, c)] for variant in BARE_VARIANTS}
        runs = [(1, "asyncio"), (1, "uvloop"), (2, "uvloop")]
        executed = {run: executor_run(*run, url, n, c, logs) for run in runs}
        for variant in reversed(BARE_VARIANTS):
            bare[variant].append(bare_run(variant, url, n, c))
    finally:
        stop(endpoint)
    report(args, bare, executed)


def mean(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(r for r, _ in runs) / len(runs), sum(c for _, c in runs) / len(runs)


def report(args: argparse.Namespace, bare: dict, executed: dict) -> None:
    # The reference is the bare loop as aiohttp runs it by default, on asyncio's own loop.
    rate, cpu = mean(bare[("aiohttp", "asyncio")])
    uv_rate, uv_cpu = mean(bare[("aiohttp", "uvloop")])
    rq_rate, rq_cpu = mean(bare[("pyreqwest", "uvloop")])
    print(machine_line())
    print(f"{args.jobs} jobs due now, concurrency {args.concurrency}, nginx endpoint")
    rows = []
    for (client, loop), runs in bare.items():
        for r, c in runs:
            rows.append([f"bare {client} loop, {loop}", round(r), "calls/s", "", 1000 * c, "", ""])
    for (processes, loop), (r, c, seen) in executed.items():
        name = f"{processes} executor process{'es' if processes > 1 else ''}, {loop}"
        rows.append([name, round(r), "jobs/s", r / rate, 1000 * c, c / cpu, seen.lost])
    headers = ["variant", "rate", "", "/ bare", "CPU ms/call", "CPU / bare", "lost"]
    print(table(headers, rows))
    best = max(executed, key=lambda run: executed[run][0])
    best_rate, one_cpu = executed[best][0], executed[(1, "uvloop")][1]
    print(
        f"ratio executor/bare: {best_rate / rate:.2f}   (best executor, {best[0]} process(es)"
        f" on {best[1]}, / the bare aiohttp loop on asyncio, goal >= 0.9;"
        f" / bare aiohttp on uvloop: {best_rate / uv_rate:.2f};"
        f" / bare pyreqwest on uvloop, the executor's client: {best_rate / rq_rate:.2f})"
    )
    print(
        f"ratio CPU per job/bare call: {one_cpu / cpu:.2f}   (1 executor on uvloop / the bare"
        f" aiohttp loop on asyncio, goal <= 1.2; / bare aiohttp on uvloop:"
        f" {one_cpu / uv_cpu:.2f}; / bare pyreqwest on uvloop: {one_cpu / rq_cpu:.2f})"
    )
    curves = {seen.name: seen.delays for _, _, seen in executed.values()}
    started_curve_png(Path(args.png), f"{args.jobs:,} jobs due now: calls started", curves)
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
