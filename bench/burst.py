"""Burst: N one-off tasks due in the same second, plus some critical ones, through the
whole pipeline (scheduler, two executors) on MariaDB, against nginx logging each call.

Prints lost (must be 0), duplicates, and start delay (arrival minus X-Scheduled-At)
p50/p95/p99/max for the critical jobs and for the rest; writes a PNG histogram.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/burst.py --jobs 30000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.harness import (  # noqa: E402
    free_port,
    start_endpoint,
    start_manage,
    stop,
    tenant_with_room,
)
from bench.pictures import histogram_png  # noqa: E402
from jobs.models import Job  # noqa: E402
from scheduler_site.ids import new_id  # noqa: E402
from tasks.models import Task  # noqa: E402
from tasks.services import bucket_for  # noqa: E402


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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(label: str, delays: list[float]) -> str:
    if not delays:
        return f"{label}: no calls"
    return (
        f"{label:9s} n={len(delays):6d}  p50 {percentile(delays, 0.50):6.2f}s  "
        f"p95 {percentile(delays, 0.95):6.2f}s  p99 {percentile(delays, 0.99):6.2f}s  "
        f"max {max(delays):6.2f}s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=30000)
    parser.add_argument("--critical", type=int, default=300)
    parser.add_argument("--executors", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--lead", type=float, default=40.0, help="seconds until the burst")
    parser.add_argument("--png", default="bench/burst.png")
    args = parser.parse_args()
    use_fresh_database("bench_burst")
    work = Path(tempfile.mkdtemp(prefix="bench-burst-"))
    record = work / "calls.csv"
    port = free_port()
    endpoint = start_endpoint(port, record)
    url = f"http://127.0.0.1:{port}/hook"
    tenant = tenant_with_room()
    due = (datetime.now(UTC) + timedelta(seconds=args.lead)).replace(microsecond=0)
    rest = create_tasks(tenant, url, args.jobs, due, priority=5)
    critical = create_tasks(tenant, url, args.critical, due, priority=0)
    connection.close()
    processes = [start_manage(["run_scheduler", "--lookahead", "15"], work / "scheduler.log")]
    processes += [
        start_manage(
            ["run_executor", "--concurrency", str(args.concurrency), "--worker-id", f"burst-{n}"],
            work / f"executor-{n}.log",
        )
        for n in range(args.executors)
    ]
    total = args.jobs + args.critical
    try:
        deadline = time.time() + args.lead + 300
        while time.time() < deadline:
            done = Job.objects.filter(status="succeeded").count()
            if done >= total:
                break
            time.sleep(1)
    finally:
        for process in processes:
            stop(process)
        stop(endpoint)
    calls = [line.split(",") for line in record.read_text().splitlines() if line]
    per_key = Counter(call[1] for call in calls)
    first: dict[str, float] = {}
    for at, key, scheduled, _attempt in calls:
        moment = datetime.fromisoformat(scheduled.replace("Z", "+00:00")).timestamp()
        first.setdefault(key, float(at) - moment)
    task_of = dict(Job.objects.values_list("id", "task_id"))
    delivered_tasks = {str(task_of.get(uuid.UUID(key))) for key in first}
    lost = len((rest | critical) - delivered_tasks)
    keys_by_task = {str(task): str(job) for job, task in task_of.items()}
    delays_rest = [first[keys_by_task[t]] for t in rest if keys_by_task.get(t) in first]
    delays_critical = [first[keys_by_task[t]] for t in critical if keys_by_task.get(t) in first]
    print(machine_line())
    print(
        f"burst: {args.jobs} jobs + {args.critical} critical due at one second; "
        f"{args.executors} executors x concurrency {args.concurrency}; scheduler lookahead 15s"
    )
    print(f"lost: {lost}")
    print(f"duplicates: {sum(n - 1 for n in per_key.values() if n > 1)}")
    print(describe("critical", delays_critical))
    print(describe("rest", delays_rest))
    all_delays = delays_rest + delays_critical
    if all_delays:
        span = max(float(c[0]) for c in calls) - min(float(c[0]) for c in calls)
        print(
            f"delivered {len(all_delays)} in {span:.1f}s ({len(all_delays) / span:.0f}/s); "
            f"median {statistics.median(all_delays):.2f}s"
        )
        histogram_png(
            Path(args.png),
            {"rest": delays_rest, "critical": delays_critical},
            f"start delay, {args.jobs}+{args.critical} jobs due at once",
        )
        print(f"histogram: {args.png}")


if __name__ == "__main__":
    main()
