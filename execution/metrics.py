"""Prometheus metrics: what each process counts, and the queue as the database sees it.

Process metrics are served by each long-running command on `--metrics-port` (0: off); the
queue gauges (depth by status and priority, due but unclaimed) are read from the jobs table
when the API's `/metrics` is scraped.
"""

from __future__ import annotations

import time

from django.db import connection
from django.utils import timezone
from prometheus_client import Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from scheduler_site.sqltools import datetime_param

START_DELAY = Histogram(
    "scheduler_start_delay_seconds",
    "Seconds from a job attempt's due time to the start of its call.",
    ["priority"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
OUTCOMES = Counter(
    "scheduler_job_outcomes_total", "Attempts by tenant and outcome.", ["tenant", "outcome"]
)
DROPPED_RESULTS = Counter(
    "scheduler_dropped_results_total", "Results that matched no row (stale attempts)."
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


def serve_process_metrics(port: int) -> None:
    if port:
        start_http_server(port, addr="127.0.0.1")


def mark_healthy(process: str) -> None:
    LAST_SUCCESS.labels(process).set(time.time())


class QueueCollector(Collector):
    """Queue depth by status and priority, and jobs due but not claimed, read on scrape."""

    def collect(self):
        depth = GaugeMetricFamily(
            "scheduler_queue_depth",
            "Jobs in the queue by status and priority.",
            labels=["status", "priority"],
        )
        with connection.cursor() as cursor:
            cursor.execute("SELECT status, priority, COUNT(*) FROM jobs GROUP BY status, priority")
            for status, priority, count in cursor.fetchall():
                depth.add_metric([status, str(priority)], count)
            cursor.execute(
                "SELECT COUNT(*) FROM jobs WHERE status = 'pending' AND next_attempt_at <= %s",
                [datetime_param(timezone.now())],
            )
            due = cursor.fetchone()[0]
        yield depth
        yield GaugeMetricFamily(
            "scheduler_due_unclaimed_jobs",
            "Pending jobs already due and not yet claimed.",
            value=due,
        )
