"""Where the executor's CPU goes: one executor delivers N jobs due now to nginx, twice. The
first pass measures CPU per job from /proc (the executor's and MariaDB's); the second runs
under py-spy (sampling without stopping the process) and prints the top functions by own
time and the share of each source file.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/profile_executor.py
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.burst import wait_for_calls  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.cpu import CpuMeter  # noqa: E402
from bench.delivery import LogCounter  # noqa: E402
from bench.executor_throughput import bare_run  # noqa: E402
from bench.harness import (  # noqa: E402
    insert_due_jobs,
    recorded_endpoint,
    start_manage,
    stop,
    tenant_with_room,
    wait_for_succeeded,
)
from bench.report import table  # noqa: E402
from jobs.models import Job  # noqa: E402


def deliver(
    count: int, url: str, record: Path, executor: int, label: str, inserted_hook=None
) -> dict[str, float]:
    """Insert `count` jobs due now and wait until all succeeded; CPU seconds spent meanwhile.
    `inserted_hook` runs once the jobs are in (the executor is idle before)."""
    Job.objects.all().delete()
    server, worker = CpuMeter.mariadb(), CpuMeter(executor)
    server.start()
    worker.start()
    insert_due_jobs(tenant_with_room(), url, count)
    inserted = server.stop()
    connection.close()
    if inserted_hook:
        inserted_hook()
    started = time.monotonic()
    wait_for_calls(label, LogCounter(record), count, time.time())
    wait_for_succeeded(count, timeout=120)
    seconds = time.monotonic() - started
    return {"executor": worker.stop(), "mariadb": server.stop(), "insert": inserted, "s": seconds}


def bare_cpu_per_call(client: str, url: str, count: int, concurrency: int) -> float:
    """CPU ms per call of a plain loop of `client` in this process: the floor of a call
    (aiohttp on asyncio's loop, the issue's reference; pyreqwest on uvloop, the executor's)."""
    loop = "asyncio" if client == "aiohttp" else "uvloop"
    return 1000 * bare_run((client, loop), url, count, concurrency)[1]


def profile(pid: int, seconds: float, out: Path) -> subprocess.Popen:
    args = ["py-spy", "record", "--pid", str(pid), "--duration", str(int(seconds))]
    args += ["--rate", "200", "--format", "raw", "--function", "--threads", "--nonblocking"]
    args += ["-o", str(out)]
    return subprocess.Popen(
        [str(Path(sys.executable).parent / args[0]), *args[1:]], stdout=subprocess.DEVNULL
    )


PROJECT = ("execution/", "jobs/", "tasks/", "scheduler_site/", "history/")


def tallies(raw: Path) -> tuple[dict[str, Counter], int]:
    """Samples by innermost function (own time), by its file, by thread, and by each of the
    project's functions anywhere on the stack (inclusive time); the total."""
    found = {name: Counter() for name in ("own", "file", "thread", "inclusive")}
    total = 0
    for line in raw.read_text().splitlines():
        stack, _, text = line.rpartition(" ")
        thread, *frames = stack.split(";")
        count = int(text)
        leaf = frames[-1] if frames else "(no Python frame)"
        found["own"][leaf] += count
        found["file"][leaf.rpartition("(")[2].split(":")[0]] += count
        found["thread"][thread] += count
        for frame in set(frames):
            if frame.rpartition("(")[2].startswith(PROJECT):
                found["inclusive"][frame] += count
        total += count
    return found, total


def shares(counter: Counter, total: int, top: int) -> list[list[object]]:
    return [[name[:88], n, f"{100 * n / total:.1f}"] for name, n in counter.most_common(top)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=8, help="of profile")
    args = parser.parse_args()
    use_fresh_database("profile")
    endpoint = recorded_endpoint("profile")
    url, record, work = endpoint.url, endpoint.record, endpoint.work
    cmd = ["run_executor", "--concurrency", str(args.concurrency), "--poll-interval", "0.5"]
    executor = start_manage(cmd + ["--worker-id", "profiled"], work / "executor.log")
    time.sleep(3)  # let it start and idle
    try:
        spent = deliver(args.jobs, url, record, executor.pid, "measured pass")
        for client in ("aiohttp", "pyreqwest"):
            spent[client] = bare_cpu_per_call(client, url, args.jobs, args.concurrency)
            spent[client] *= args.jobs / 1000
        spies = []

        def start_spy() -> None:
            spies.append(profile(executor.pid, args.seconds, work / "profile.txt"))

        deliver(args.jobs, url, record, executor.pid, "profiled pass", start_spy)
        spies[0].wait(timeout=args.seconds + 60)
    finally:
        stop(executor)
        stop(endpoint.process)
    print(machine_line())
    report(args, spent, work / "profile.txt")


def report(args: argparse.Namespace, spent: dict[str, float], raw: Path) -> None:
    per_job = {name: 1000 * value / args.jobs for name, value in spent.items() if name != "s"}
    print(
        f"{args.jobs:,} jobs due now, 1 executor x concurrency {args.concurrency}, nginx:"
        f" {args.jobs / spent['s']:,.0f} jobs/s end to end"
    )
    print(
        f"executor CPU {per_job['executor']:.3f} ms/job (goal <= 0.15);"
        f" MariaDB CPU {per_job['mariadb']:.3f} ms per delivered job (goal <= 0.15), of which"
        f" the insert {per_job['insert']:.3f} (the claim and result"
        f" {per_job['mariadb'] - per_job['insert']:.3f})"
    )
    for client in ("aiohttp", "pyreqwest"):
        print(
            f"a bare {client} loop, same concurrency and endpoint: {per_job[client]:.3f} ms of"
            f" CPU per call; executor / bare = {per_job['executor'] / per_job[client]:.2f}x"
        )
    found, total = tallies(raw)
    print(f"\npy-spy, {total:,} samples of the executor (idle threads left out), by own time:")
    print(table(["function (file:line)", "samples", "%"], shares(found["own"], total, 15)))
    print("\nthe project's functions, inclusive (anywhere on the stack):")
    print(table(["function (file:line)", "samples", "%"], shares(found["inclusive"], total, 15)))
    print()
    print(table(["file (own time)", "samples", "%"], shares(found["file"], total, 12)))
    print()
    print(table(["thread", "samples", "%"], shares(found["thread"], total, 4)))


if __name__ == "__main__":
    main()
