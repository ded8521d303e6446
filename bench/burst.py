"""Burst: N one-off tasks due in the same second, plus some critical ones, through the
whole pipeline (scheduler, two executors) on MariaDB, against nginx logging each call.

Prints lost (must be 0), duplicates, and start delay (arrival minus X-Scheduled-At)
p50/p99/last for all calls and p99 for the critical ones; writes PNG plots.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/burst.py --jobs 30000

With --callbacks, the same burst with every task carrying on_success_url and
on_failure_url (the same nginx, path /callback/) against it without them, the two
alternated for --rounds pairs: the runs' own start delays, their p99 ratio, and every
callback counted in the queue and at the endpoint.

With --flows F, the burst of issue 20 (bench/flows_burst.py): the --jobs + --critical tasks
spread over F flow keys of --flow-parallelism each, beside --free tasks without a flow.
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
from django.db.models import Count  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.callback_tally import HEADERS as CALLBACK_HEADERS  # noqa: E402
from bench.callback_tally import tally  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.delivery import HEADERS, Delivery, LogCounter, delivery, read_calls  # noqa: E402
from bench.harness import (  # noqa: E402
    callback_record,
    recorded_endpoint,
    start_manage,
    stop,
    tenant_with_room,  # noqa: E402
)
from bench.report import Progress, histogram_png, started_curve_png, table  # noqa: E402
from jobs.models import Callback, Job  # noqa: E402
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
    callbacks: bool = False  # every task has on_success_url and on_failure_url


def create_tasks(
    tenant,
    url: str,
    count: int,
    due: datetime,
    priority: int,
    hooks: str | None = None,
    flow_key: str | None = None,
) -> set[str]:
    """`hooks`: the base of the tasks' callback URLs (None: no callbacks)."""
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
                on_success_url=hooks and f"{hooks}/success",
                on_failure_url=hooks and f"{hooks}/failure",
                flow_key=flow_key,
            )
        )
    Task.objects.bulk_create(tasks, batch_size=2000)
    return {str(task.id) for task in tasks}


def run_ours(name: str, burst: Burst, url: str, record: Path, work: Path) -> Delivery:
    """One burst through this project's scheduler and executors; the database must be the
    benchmark's own (it is emptied first)."""
    Job.objects.all().delete()
    Task.objects.all().delete()
    Callback.objects.all().delete()
    tenant = tenant_with_room()
    due = (datetime.now(UTC) + timedelta(seconds=burst.lead)).replace(microsecond=0)
    hooks = url.rsplit("/", 1)[0] + "/callback" if burst.callbacks else None
    groups = dict.fromkeys(create_tasks(tenant, url, burst.jobs, due, 5, hooks), "rest")
    groups |= dict.fromkeys(create_tasks(tenant, url, burst.critical, due, 0, hooks), "critical")
    connection.close()
    callbacks = LogCounter(callback_record(record))
    processes = [start_manage(["run_scheduler", "--lookahead", "15"], work / "scheduler.log")]
    for n in range(burst.executors):
        args = ["run_executor", "--concurrency", str(burst.concurrency), "--worker-id", f"b{n}"]
        processes.append(start_manage(args, work / f"executor-{n}.log"))
    try:
        wait_for_calls(name, LogCounter(record), len(groups), due.timestamp())
        if burst.callbacks:
            wait_for_calls(f"{name} callbacks", callbacks, len(groups), due.timestamp())
    finally:
        for process in processes:
            stop(process)
    task_of = {str(job): str(task) for job, task in Job.objects.values_list("id", "task_id")}
    by_job = {job: groups[task] for job, task in task_of.items() if task in groups}
    result = delivery(name, read_calls(record), by_job, len(groups))
    if burst.callbacks:
        result.callbacks = tally(callback_record(record), len(groups), due.timestamp())
    return result


def split_by_executor() -> str:
    """How the last run's jobs fell to the executors (a burst one of them drained alone
    drains at one executor's rate)."""
    rows = Job.objects.values_list("worker_id").annotate(count=Count("id")).order_by("worker_id")
    return " / ".join(f"{worker} {count:,}" for worker, count in rows)


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


def compare(burst: Burst, rounds: int, endpoint, png: Path) -> None:
    """The burst without and with callbacks, alternated (which goes first swaps each round)."""
    plain, hooked = [], []
    try:
        for n in range(1, rounds + 1):
            for callbacks in (False, True) if n % 2 else (True, False):
                name = f"{'callbacks' if callbacks else 'plain'} {n}"
                variant = Burst(**{**vars(burst), "callbacks": callbacks})
                runs = hooked if callbacks else plain
                runs.append(run_ours(name, variant, endpoint.url, endpoint.record, endpoint.work))
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(
        f"burst: {burst.jobs} jobs + {burst.critical} priority 0 due at one second; "
        f"{burst.executors} executors x concurrency {burst.concurrency}; lookahead 15s; "
        f"{rounds} pairs without / with on_success_url and on_failure_url on every task"
    )
    print(table(HEADERS, [result.row() for result in plain + hooked]))
    print("callbacks (one per run, each run succeeds):")
    print(table(["run", *CALLBACK_HEADERS], [[r.name, *r.callbacks.row()] for r in hooked]))
    for without, with_ in zip(plain, hooked, strict=True):
        print(
            f"{with_.name} / {without.name}: p99 {with_.p(0.99):.2f} / {without.p(0.99):.2f} s"
            f" = {with_.p(0.99) / without.p(0.99):.2f}x"
        )
    mean = sum(r.p(0.99) for r in hooked) / sum(r.p(0.99) for r in plain)
    print(f"mean p99 with / without callbacks: {mean:.2f}x (goal <= 1.2x)")
    title = f"start delay of the runs, {burst.jobs}+{burst.critical} due at once"
    started_curve_png(png, title, {r.name: r.delays for r in plain + hooked})
    print(f"plot: {png}")


def add_burst_arguments(
    parser: argparse.ArgumentParser, *, jobs: int, critical: int, lead: float
) -> None:
    """The options of a Burst, with the caller's defaults for its size and lead."""
    parser.add_argument("--jobs", type=int, default=jobs)
    parser.add_argument("--critical", type=int, default=critical)
    parser.add_argument("--executors", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--lead", type=float, default=lead, help="seconds until the burst")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_burst_arguments(parser, jobs=30000, critical=300, lead=40.0)
    parser.add_argument("--png", default="bench/burst.png")
    parser.add_argument("--callbacks", action="store_true", help="against it with callbacks")
    parser.add_argument("--rounds", type=int, default=2, help="pairs, with --callbacks")
    parser.add_argument("--flows", type=int, default=0, help="flow keys (0: the plain burst)")
    parser.add_argument("--flow-parallelism", type=int, default=50)
    parser.add_argument("--free", type=int, default=1000, help="tasks without a flow")
    parser.add_argument("--flow-delay-ms", type=float, default=100.0, help="per flow call")
    args = parser.parse_args()
    if args.flows:
        run_flows_mode(args)
        return
    burst = Burst(args.jobs, args.critical, args.executors, args.concurrency, args.lead)
    use_fresh_database("bench_burst")
    endpoint = recorded_endpoint("burst")
    if args.callbacks:
        compare(burst, args.rounds, endpoint, Path(args.png))
        return
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
    print(f"jobs by executor: {split_by_executor()}")
    title = f"start delay, {burst.jobs}+{burst.critical} jobs due at once"
    histogram_png(Path(args.png), title, {"rest": result.rest, "priority 0": result.critical})
    curve = Path(args.png).with_name(Path(args.png).stem + "-curve.png")
    started_curve_png(curve, title, {"rest": result.rest, "priority 0": result.critical})
    print(f"plots: {args.png}, {curve}")


def run_flows_mode(args: argparse.Namespace) -> None:
    from bench.flows_burst import FlowsBurst, print_summary, run_flows, summary_table

    burst = FlowsBurst(
        jobs=args.jobs,
        critical=args.critical,
        free=args.free,
        flows=args.flows,
        parallelism=args.flow_parallelism,
        delay_ms=args.flow_delay_ms,
        executors=args.executors,
        concurrency=args.concurrency,
        lead=args.lead,
    )
    use_fresh_database("bench_flows")
    endpoint = recorded_endpoint("flows")
    try:
        result = run_flows(burst, endpoint.url, endpoint.record, endpoint.work)
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(
        f"flows burst: {burst.jobs} + {burst.critical} priority 0 over {burst.flows} flow keys"
        f" (parallelism {burst.parallelism}, each call held {burst.delay_ms:g} ms) beside"
        f" {burst.free} tasks without a flow, all due at one second; {burst.executors}"
        f" executors x concurrency {burst.concurrency}; lookahead 15s"
    )
    print(summary_table(result))
    print_summary(result)


if __name__ == "__main__":
    main()
