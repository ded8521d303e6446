"""Prometheus metrics: what each process counts, and the queue as the database sees it.

Process metrics are served by each long-running command on `--metrics-port` (0: off),
bound to 127.0.0.1 unless `--metrics-address` says otherwise. The queue gauges (depth by
status and priority, due but unclaimed) and the skipped-run ledger's totals by reason are
served by `serve_metrics` from one reading of the database that its loop refreshes every
few seconds, whatever the scrape rate: never by the tenant API, and never one query per
scrape; the flows' gauges (execution/flow_gauges.py) come from the same reading. The
skip totals are kept in the database because skips are recorded by several kinds of
process (the scheduler's tick, the API's resume), not all of which serve metrics.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.db import connection
from django.utils import timezone
from prometheus_client import Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from execution.backlog_gauges import BacklogReading, backlog_families, read_backlog
from execution.flow_gauges import FlowsReading, flow_families, read_flows
from execution.tenant_label import label_values, with_tenant
from scheduler_site.sqltools import datetime_param
from tasks.skip_totals import read_skip_totals

START_DELAY = Histogram(
    "scheduler_start_delay_seconds",
    "Seconds from a job attempt's due time to the start of its call.",
    ["priority"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
ATTEMPTS = Counter(
    "scheduler_attempts_total",
    "Attempts by outcome: succeeded, retry, dead, cancelled (its task deleted before the call).",
    with_tenant(["outcome"]),
)
CALLS = Counter(
    "scheduler_calls_total",
    "Calls sent, by what came back: 2xx, 3xx, 4xx, 5xx, timeout or connection_error.",
    with_tenant(["status_class"]),
)
CALL_SECONDS = Histogram(
    "scheduler_call_duration_seconds",
    "Seconds from a call's start to its answer read (or its timeout, or its failed connection).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300),
)
DEAD_HOLDERS_JOBS = Counter(
    "scheduler_dead_executor_jobs_total",
    "Jobs of executors whose heartbeat went stale, handed back by the reconciler: unfired "
    "(not yet due, no attempt charged) or lost (due, so maybe called: an attempt charged).",
    ["kind"],
)
DROPPED_RESULTS = Counter(
    "scheduler_dropped_results_total", "Results that matched no row (stale attempts)."
)
REFUSED_BATCHES = Counter(
    "scheduler_refused_result_batches_total",
    "Result batches the database refused for what a result held, written again in halves.",
)
TICK_SECONDS = Histogram("scheduler_tick_duration_seconds", "Duration of a scheduler tick.")
EXCHANGE_SECONDS = Histogram(
    "scheduler_claim_duration_seconds", "Duration of an executor round (results and claim)."
)
LAST_SUCCESS = Gauge(
    "scheduler_process_last_success_timestamp_seconds",
    "When a process last finished a turn without error (its health).",
    ["process"],
)


def serve_process_metrics(port: int, address: str = "127.0.0.1") -> None:
    if port:
        start_http_server(port, addr=address)


def mark_healthy(process: str) -> None:
    LAST_SUCCESS.labels(process).set(time.time())


def count_attempt(tenant_id: object, status: str) -> None:
    """One attempt ended (or a claimed job was settled without one) with this job status."""
    ATTEMPTS.labels(*label_values(tenant_id, outcome_label(status))).inc()


def outcome_label(status: str) -> str:
    return {"succeeded": "succeeded", "dead": "dead", "cancelled": "cancelled"}.get(status, "retry")


# The classes of a call that got no answer; one that did is named for its status's hundred.
TIMEOUT, CONNECTION_ERROR = "timeout", "connection_error"


def status_class(status: int) -> str:
    return f"{status // 100}xx"


def count_call(tenant_id: object, klass: str, seconds: float) -> None:
    """A call that left this process: what came back, and how long it took."""
    CALLS.labels(*label_values(tenant_id, klass)).inc()
    CALL_SECONDS.observe(seconds)


@dataclass(frozen=True)
class QueueReading:
    depth: list[tuple[str, int, int]]  # (status, priority, jobs)
    due_unclaimed: int
    taken_at: float
    skipped_runs: list[tuple[str, int]] = ()  # (reason, runs ever recorded)
    flows: FlowsReading = FlowsReading([])
    backlog: BacklogReading = BacklogReading()


def read_queue() -> QueueReading:
    """Queue depth by status and priority, pending jobs already due, the skip totals, the
    flows' gauges and the backlogs."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, priority, COUNT(*) FROM jobs GROUP BY status, priority")
        depth = [(status, priority, count) for status, priority, count in cursor.fetchall()]
        cursor.execute(
            "SELECT COUNT(*) FROM jobs WHERE status = 'pending' AND wake_at <= %s",
            [datetime_param(now)],
        )
        due = cursor.fetchone()[0]
        skipped = read_skip_totals(cursor)
        flows = read_flows(cursor)
        backlog = read_backlog(cursor, now)
    return QueueReading(depth, due, time.time(), skipped, flows, backlog)


class QueueCollector(Collector):
    """Serves the last reading handed to it; scrapes never touch the database."""

    def __init__(self) -> None:
        self.reading: QueueReading | None = None

    def collect(self):
        reading = self.reading
        if reading is None:
            return
        depth = GaugeMetricFamily(
            "scheduler_queue_depth",
            "Jobs in the queue by status and priority.",
            labels=["status", "priority"],
        )
        for status, priority, count in reading.depth:
            depth.add_metric([status, str(priority)], count)
        yield depth
        yield GaugeMetricFamily(
            "scheduler_due_unclaimed_jobs",
            "Pending jobs already due and not yet claimed.",
            value=reading.due_unclaimed,
        )
        skipped = CounterMetricFamily(
            "scheduler_skipped_runs",
            "Scheduled runs not made, recorded in the skipped-run ledger, by reason.",
            labels=["reason"],
        )
        for reason, runs in reading.skipped_runs:
            skipped.add_metric([reason], runs)
        yield skipped
        yield from flow_families(reading.flows)
        yield from backlog_families(reading.backlog, reading.depth)
        yield GaugeMetricFamily(
            "scheduler_queue_reading_timestamp_seconds",
            "When the queue gauges were read from the database.",
            value=reading.taken_at,
        )
