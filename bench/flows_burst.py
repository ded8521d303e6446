"""The burst with flow keys (issue 20): N + C tasks due in one second spread over F flows of
parallelism P each (their calls go to bench/flow_endpoint.py, which holds each call for a
while and logs its start and end), beside M tasks without a flow due at the same second
(their calls go to nginx, as the plain burst's do). One scheduler, two executors.

What it measures: the free tasks' start delay (they must not wait behind the flows), the
limited ones' drain (they wait by design), and, per flow, the most calls in flight at
once at the destination (the sweep of the endpoint's start/end log), which must be <= P.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from django.db import connection

from bench.burst import create_tasks, wait_for_calls
from bench.delivery import LogCounter, delivery, read_calls
from bench.harness import ROOT, free_port, start_manage, stop, tenant_with_room
from bench.report import percentile, table
from flows.models import Flow
from jobs.models import Job
from tasks.models import Task

FREE_AT = timedelta(milliseconds=950)  # into the due second: behind every flow's jobs


@dataclass
class FlowsBurst:
    jobs: int = 10_000  # limited, priority 5
    critical: int = 100  # limited too, priority 0
    free: int = 1_000  # no flow, priority 5
    flows: int = 10
    parallelism: int = 50
    delay_ms: float = 100.0  # how long the flows' destination holds each call
    executors: int = 2
    concurrency: int = 200
    lead: float = 40.0


@dataclass
class FlowsResult:
    free: list[float]  # start delays of the tasks without a flow
    limited: list[float]  # start delays of the flows' tasks
    most_in_flight: dict[str, int]  # per flow key, at the destination
    lost: int
    duplicates: int
    charged: int  # jobs that took more than one attempt (a wait must cost none)
    limited_span: float  # first to last limited call, seconds
    parallelism: int = 0
    extra: dict = field(default_factory=dict)

    def p(self, values: list[float], share: float) -> float:
        return percentile(values, share) if values else float("nan")

    def summary(self) -> dict:
        most = max(self.most_in_flight.values(), default=0)
        within = not self.parallelism or most <= self.parallelism
        rate = len(self.limited) / self.limited_span if self.limited_span else 0.0
        return {
            "free_p50": self.p(self.free, 0.5),
            "free_p99": self.p(self.free, 0.99),
            "free_max": max(self.free, default=float("nan")),
            "limited_p50": self.p(self.limited, 0.5),
            "limited_p99": self.p(self.limited, 0.99),
            "limited_drain": max(self.limited, default=float("nan")),
            "limited_rate": rate,
            "most_in_flight": self.most_in_flight,
            "within_limits": within,
            "lost": self.lost,
            "duplicates": self.duplicates,
            "charged": self.charged,
        }


def start_flow_endpoint(work: Path, delay_ms: float) -> tuple[subprocess.Popen, str, Path]:
    port, record = free_port(), work / "flow-calls.csv"
    record.touch()
    script = str(ROOT / "bench" / "flow_endpoint.py")
    args = ["--port", str(port), "--record", str(record), "--delay-ms", str(delay_ms)]
    process = subprocess.Popen([sys.executable, script, *args])
    _wait_listening(port)
    return process, f"http://127.0.0.1:{port}/flow", record


def _wait_listening(port: int) -> None:
    for _ in range(200):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise SystemExit(f"the flows' endpoint did not start on 127.0.0.1:{port}")


def make_tasks(burst: FlowsBurst, free_url: str, flow_url: str, due: datetime) -> dict:
    """Task id -> "free" or "limited". Within the due second flow n's tasks are due at
    n * 900/F ms and the free ones at 950 ms: the claim (in due order) meets the flows one
    by one, so a gate that let a flow exceed its parallelism would show it at once (every
    call slot on one flow), and the free tasks come behind every limited job."""
    tenant = tenant_with_room()
    tenant.uses_flows = True
    tenant.save(update_fields=["uses_flows"])
    groups = {}
    for n in range(burst.flows):
        key = f"dest-{n}"
        # Parallelism 0 here: flows with no limit, to see how far a flow's calls overlap
        # at the destination when nothing holds them back (the check's own check).
        Flow.objects.create(tenant=tenant, key=key, parallelism=burst.parallelism or None)
        url = f"{flow_url}/{key}"
        share, top = _share(burst.jobs, burst.flows, n), _share(burst.critical, burst.flows, n)
        at = due + timedelta(milliseconds=n * 900 // burst.flows)
        made = create_tasks(tenant, url, share, at, 5, flow_key=key)
        made |= create_tasks(tenant, url, top, at, 0, flow_key=key)
        groups |= dict.fromkeys(made, "limited")
    groups |= dict.fromkeys(create_tasks(tenant, free_url, burst.free, due + FREE_AT, 5), "free")
    return groups


def _share(total: int, parts: int, n: int) -> int:
    return total // parts + (1 if n < total % parts else 0)


def run_flows(burst: FlowsBurst, free_url: str, free_record: Path, work: Path) -> FlowsResult:
    """One flows burst; the database must be the benchmark's own (it is emptied first)."""
    Job.objects.all().delete()
    Task.objects.all().delete()
    Flow.objects.all().delete()
    endpoint, flow_url, flow_record = start_flow_endpoint(work, burst.delay_ms)
    due = (datetime.now(UTC) + timedelta(seconds=burst.lead)).replace(microsecond=0)
    groups = make_tasks(burst, free_url, flow_url, due)
    connection.close()
    counter = Both(LogCounter(free_record), LogCounter(flow_record))
    processes = [start_manage(["run_scheduler", "--lookahead", "15"], work / "scheduler.log")]
    for n in range(burst.executors):
        args = ["run_executor", "--concurrency", str(burst.concurrency), "--worker-id", f"f{n}"]
        processes.append(start_manage(args, work / f"executor-{n}.log"))
    try:
        wait_for_calls("flows burst", counter, len(groups), due.timestamp())
    finally:
        for process in processes:
            stop(process)
        stop(endpoint)
    return _result(burst, groups, free_record, flow_record)


class Both:
    """Lines added to either endpoint's log: the progress of a flows burst."""

    def __init__(self, *counters: LogCounter) -> None:
        self.counters = counters

    def poll(self) -> int:
        return sum(counter.poll() for counter in self.counters)


def _result(burst, groups: dict, free_record: Path, flow_record: Path) -> FlowsResult:
    task_of = {str(job): str(task) for job, task in Job.objects.values_list("id", "task_id")}
    by_job = {job: groups[task] for job, task in task_of.items() if task in groups}
    flow_calls = read_flow_calls(flow_record)
    calls = read_calls(free_record) + [(start, key, due) for start, _, _, key, due in flow_calls]
    seen = delivery("flows", calls, {j: "rest" for j in by_job}, len(groups))
    free = delivery("free", calls, {j: "rest" for j, g in by_job.items() if g == "free"}, 0)
    limited = delivery("lim", calls, {j: "rest" for j, g in by_job.items() if g == "limited"}, 0)
    charged = Job.objects.filter(task_id__in=list(groups)).exclude(attempt=1).count()
    mine = [call for call in flow_calls if call[3] in by_job]
    return FlowsResult(
        free=free.rest,
        limited=limited.rest,
        most_in_flight=most_in_flight(mine),
        lost=seen.lost,
        duplicates=seen.duplicates,
        charged=charged,
        limited_span=limited.span,
        parallelism=burst.parallelism,
    )


def read_flow_calls(record: Path) -> list[tuple[float, float, str, str, float]]:
    """(start, end, flow, key, scheduled time) of every call the flows' endpoint answered."""
    calls = []
    for line in record.read_text().splitlines():
        start, end, flow, key, scheduled = line.split(",")
        if scheduled == "-":
            continue
        moment = datetime.fromisoformat(scheduled.replace("Z", "+00:00")).timestamp()
        calls.append((float(start), float(end), flow, key, moment))
    return calls


def most_in_flight(calls: list[tuple[float, float, str, str, float]]) -> dict[str, int]:
    """Per flow, the most calls between their start and their end at one moment (an end
    and a start at the same instant do not overlap)."""
    edges = defaultdict(list)
    for start, end, flow, _, _ in calls:
        edges[flow] += [(start, 1), (end, -1)]
    most = {}
    for flow, points in edges.items():
        now = top = 0
        for _, step in sorted(points):  # -1 sorts before +1 at the same time
            now += step
            top = max(top, now)
        most[flow] = top
    return dict(sorted(most.items()))


def summary_table(result: FlowsResult) -> str:
    s = result.summary()
    verdict = "yes" if s["within_limits"] else "NO"
    rows = [
        ["free (no flow)", len(result.free), s["free_p50"], s["free_p99"], s["free_max"], "-"],
        [
            "limited (flows)",
            len(result.limited),
            s["limited_p50"],
            s["limited_p99"],
            s["limited_drain"],
            round(s["limited_rate"]),
        ],
    ]
    lines = [table(["tasks", "calls", "p50 s", "p99 s", "max s", "calls/s"], rows)]
    lines.append(
        f"free p99 {s['free_p99']:.2f} s (goal < 1 s: {'met' if s['free_p99'] < 1 else 'NOT met'});"
        f" limited drained {s['limited_drain']:.1f} s after the due second"
    )
    most = ", ".join(f"{k} {v}" for k, v in s["most_in_flight"].items())
    lines.append(f"most in flight per flow at the destination: {most}")
    if result.parallelism:
        lines.append(f"every flow within its parallelism {result.parallelism}: {verdict}")
    lines.append(
        f"lost {s['lost']}, duplicates {s['duplicates']}, jobs charged a 2nd attempt {s['charged']}"
    )
    return "\n".join(lines)


def print_summary(result: FlowsResult) -> None:
    """One machine-readable line (bench/flows_sitting.py reads it) after the human one."""
    print("FLOWS " + json.dumps(result.summary()))
