"""Burst: N one-off tasks due in the same second, plus some critical ones, through the
whole pipeline (scheduler, two executors) on MariaDB, against nginx logging each call.

Prints lost (must be 0), duplicates, and start delay (arrival minus X-Scheduled-At)
p50/p99/last for all calls and p99 for the critical ones; writes PNG plots.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/burst.py --jobs 30000
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.delivery import HEADERS, Delivery, LogCounter, delivery, read_calls  # noqa: E402
from bench.harness import (  # noqa: E402
    recorded_endpoint,
    start_manage,
    stop,
    tenant_with_room,  # noqa: E402
)
from bench.report import Progress, histogram_png, started_curve_png, table  # noqa: E402
from jobs.models import Job  # noqa: E402
from scheduler_site.ids import new_id  # noqa: E402
from tasks.models import Task  # noqa: E402
from tasks.services import bucket_for  # noqa: E402


@dataclass
class Burst:
    jobs: int = 10_000
    critical: int = 100
    executors: int = 2
    concurrency: int = 200
    lead: float = 40.0  # seconds from creating the tasks to their due time


def create_tasks(tenant, url: str, count: int, due: datetime, priority: int) -> set[str]:
    tasks = []
    for _ in range(count):
        task_id = new_id()
        tasks.append(
            Task(
                id=task_id,
                tenant=tenant,
                url=url,
                run_at=due,
                next_run_at=due,
                priority=priority,
                bucket=bucket_for(task_id),
            )
        )
    Task.objects.bulk_create(tasks, batch_size=2000)
    return {str(task.id) for task in tasks}


def run_ours(name: str, burst: Burst, url: str, record: Path, work: Path) -> Delivery:
    """One burst through this project's scheduler and executors; the database must be the
    benchmark's own (it is emptied first)."""
    Job.objects.all().delete()
    Task.objects.all().delete()
    tenant = tenant_with_room()
    due = (datetime.now(UTC) + timedelta(seconds=burst.lead)).replace(microsecond=0)
    groups = dict.fromkeys(create_tasks(tenant, url, burst.jobs, due, 5), "rest")
    groups |= dict.fromkeys(create_tasks(tenant, url, burst.critical, due, 0), "critical")
    connection.close()
    processes = [start_manage(["run_scheduler", "--lookahead", "15"], work / "scheduler.log")]
    for n in range(burst.executors):
        args = ["run_executor", "--concurrency", str(burst.concurrency), "--worker-id", f"b{n}"]
        processes.append(start_manage(args, work / f"executor-{n}.log"))
    try:
        wait_for_calls(name, LogCounter(record), len(groups), due.timestamp())
    finally:
        for process in processes:
            stop(process)
    task_of = {str(job): str(task) for job, task in Job.objects.values_list("id", "task_id")}
    by_job = {job: groups[task] for job, task in task_of.items() if task in groups}
    return delivery(name, read_calls(record), by_job, len(groups))


def wait_for_calls(label: str, counter: LogCounter, total: int, due: float) -> None:
    """Until `total` calls arrived, or nothing arrived for 30 s after the due time."""
    progress = Progress(label, total)
    last_change, seen = time.time(), 0
    while seen < total:
        time.sleep(0.1)  # reading the log's new lines costs next to nothing
        count = counter.poll()
        if count != seen:
            seen, last_change = count, time.time()
        progress.update(seen)
        if time.time() > max(due, last_change) + 30:
            break
    progress.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=30000)
    parser.add_argument("--critical", type=int, default=300)
    parser.add_argument("--executors", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--lead", type=float, default=40.0, help="seconds until the burst")
    parser.add_argument("--png", default="bench/burst.png")
    args = parser.parse_args()
    burst = Burst(args.jobs, args.critical, args.executors, args.concurrency, args.lead)
    use_fresh_database("bench_burst")
    endpoint = recorded_endpoint("burst")
    try:
        result = run_ours("ours", burst, endpoint.url, endpoint.record, endpoint.work)
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(
        f"burst: {burst.jobs} jobs + {burst.critical} priority 0 due at one second; "
        f"{burst.executors} executors x concurrency {burst.concurrency}; lookahead 15s"
    )
    print(table(HEADERS, [result.row()]))
    title = f"start delay, {burst.jobs}+{burst.critical} jobs due at once"
    histogram_png(Path(args.png), title, {"rest": result.rest, "priority 0": result.critical})
    curve = Path(args.png).with_name(Path(args.png).stem + "-curve.png")
    started_curve_png(curve, title, {"rest": result.rest, "priority 0": result.critical})
    print(f"plots: {args.png}, {curve}")


if __name__ == "__main__":
    main()
