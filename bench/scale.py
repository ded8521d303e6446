"""Scale: the same figures at 20,000 tasks and at 1,000,000 (10,000 due per minute, 1,000
distinct cron expressions in 100 zones, H-jittered hourly and daily ones) with 5,000,000
finished jobs waiting for the archiver, in one run, as ratios; then a 100,000-job herd due in
one second beside the 10,000 burst.

Each size has a database of its own (`<name>_small`, `<name>_large`, `<name>_herd`, dropped
at the end); the rounds alternate which size goes first. The rows are loaded by
bench/scale_load.py; the figures of one round are bench/scale_measure.py's.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scale_bench python bench/scale.py \
        --tasks 100000 --finished 500000
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import MySQLdb  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench import scale_herd, scale_load, scale_measure  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.harness import recorded_endpoint, stop  # noqa: E402
from bench.report import Progress  # noqa: E402
from bench.scale_report import report  # noqa: E402
from tasks.auth import issue_token  # noqa: E402

SMALL_TASKS = 20_000
BASE_NAME = settings.DATABASES["default"]["NAME"]


def point_at(name: str) -> None:
    connection.close()
    settings.DATABASES["default"]["NAME"] = name


def fresh(suffix: str) -> str:
    point_at(BASE_NAME)
    return use_fresh_database(suffix)


def load(suffix: str, size: scale_load.Size) -> tuple[str, list]:
    name = fresh(suffix)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        tenants = scale_load.load(cursor, size)
        scale_load.analyze(cursor)
    print(
        f"loaded {size.tasks:,} tasks and {size.finished:,} finished jobs into {name}"
        f" in {time.perf_counter() - started:.0f} s (load average {load_average()})"
    )
    return name, tenants


def buffer_pool_mib() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT @@innodb_buffer_pool_size")
        return cursor.fetchone()[0] // 2**20


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def measure(sizes: dict[str, scale_load.Size], names: dict, token: str, rounds: int) -> dict:
    """Every round on both sizes, the first size alternating (noise hits both alike)."""
    client = scale_measure.api_client(token)
    figures = {label: [] for label in sizes}
    progress = Progress(f"{rounds} rounds x 2 sizes", rounds)
    for n in range(rounds + 1):  # round 0 warms both up and is not counted
        progress.update(max(n - 1, 0))
        order = list(sizes) if n % 2 else list(sizes)[::-1]
        for label in order:
            point_at(names[label])
            result = scale_measure.one_round(client, sizes[label].tasks)
            if n:
                figures[label].append(result)
    progress.close()
    return figures


def drop(names: list[str]) -> None:
    point_at(BASE_NAME)
    db = settings.DATABASES["default"]
    raw = MySQLdb.connect(host=db["HOST"], port=int(db["PORT"] or 3306), user=db["USER"])
    for name in names:
        raw.cursor().execute(f"DROP DATABASE IF EXISTS `{name}`")
    raw.close()


def herd(jobs: int, max_held: int) -> str:
    fresh("herd")
    endpoint = recorded_endpoint("scale-herd")
    try:
        runs = [
            scale_herd.herd_run("burst 10,000", 10_000, max_held, 40.0, endpoint),
            scale_herd.herd_run(f"herd {jobs:,}", jobs, max_held, 90.0, endpoint),
        ]
    finally:
        stop(endpoint.process)
    return scale_herd.herd_report(runs, max_held)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1_000_000)
    parser.add_argument("--finished", type=int, default=5_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--herd", type=int, default=100_000, help="jobs (0: no herd)")
    parser.add_argument("--max-held", type=int, default=10_000, help="per executor")
    parser.add_argument("--keep", action="store_true", help="keep the databases")
    args = parser.parse_args()
    small = scale_load.Size(SMALL_TASKS, args.finished * SMALL_TASKS // args.tasks)
    sizes = {
        f"{SMALL_TASKS:,} tasks": small,
        f"{args.tasks:,} tasks": scale_load.Size(args.tasks, args.finished),
    }
    names = {}
    try:
        for label, size in sizes.items():
            names[label], tenants = load(label.split()[0].replace(",", "_"), size)
        print(f"{machine_line()}; InnoDB buffer pool {buffer_pool_mib()} MiB")
        figures = measure(sizes, names, issue_token(tenants[0]), args.rounds)
        print(f"{args.rounds} rounds, load average {load_average()}")
        print(report(*figures.values(), labels=tuple(sizes)))
        if args.herd:
            print(herd(args.herd, args.max_held))
            print(f"load average {load_average()}")
    finally:
        if not args.keep:
            drop([*names.values(), f"{BASE_NAME}_herd"])
    rusage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"benchmark process: {rusage.ru_utime + rusage.ru_stime:.0f} s CPU")


if __name__ == "__main__":
    main()
