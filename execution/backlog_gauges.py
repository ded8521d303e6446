"""The gauges that say a part of the pipeline is behind, read with the queue gauges
(execution/metrics.py): the oldest due job's age per priority (the executors), the dead
jobs waiting in the DLQ (the tenants' endpoints), and the finished jobs old enough to
archive that are still in the queue (the archiver).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from prometheus_client.core import GaugeMetricFamily

from execution.tenant_label import tenant_labelled
from jobs.archive import archive_delays
from jobs.dead_letters import TENANT_PRIORITIES
from jobs.models import CALLBACK_PRIORITY, JobStatus
from jobs.oldest_due import oldest_due_ages
from scheduler_site.sqltools import datetime_from_db, datetime_param, uuid_text

# Every lane has a series (0 when nothing is due), so a panel or an alert never sees a gap.
LANES = [*TENANT_PRIORITIES, CALLBACK_PRIORITY]
# The DLQ's index holds the dead runs by tenant: one range, counted in its order (through the
# wake index the ten priorities' ranges went through a temporary table and a sort).
DEAD_BY_TENANT = """
SELECT dead_tenant, COUNT(*) FROM jobs WHERE dead_tenant IS NOT NULL GROUP BY dead_tenant
"""
# A range on status (BETWEEN one value) keeps MariaDB on the wake index (jobs/wake_index.py).
ARCHIVABLE = """
SELECT COUNT(*), MIN(wake_at) FROM jobs WHERE status BETWEEN %s AND %s AND wake_at <= %s
"""


@dataclass(frozen=True)
class BacklogReading:
    oldest_due: dict[int, float] = field(default_factory=dict)  # priority -> seconds
    dead_by_tenant: dict[str, int] | None = None  # only with the tenant label
    archivable: dict[str, int] = field(default_factory=dict)  # status -> jobs
    archive_lag: float = 0.0  # seconds the oldest of them has been old enough


def read_backlog(cursor, now: datetime) -> BacklogReading:
    dead = None
    if tenant_labelled():
        cursor.execute(DEAD_BY_TENANT)
        dead = {uuid_text(tenant): count for tenant, count in cursor.fetchall()}
    archivable, lag = {}, 0.0
    for status, delay in archive_delays().items():
        cutoff = now - delay
        cursor.execute(ARCHIVABLE, [status, status, datetime_param(cutoff)])
        count, oldest = cursor.fetchone()
        archivable[str(status)] = count
        if oldest is not None:
            lag = max(lag, (cutoff - datetime_from_db(oldest)).total_seconds())
    return BacklogReading(oldest_due_ages(now, cursor), dead, archivable, lag)


def backlog_families(reading: BacklogReading, depth: list[tuple[str, int, int]]):
    oldest = GaugeMetricFamily(
        "scheduler_oldest_due_job_age_seconds",
        "Seconds the oldest due pending job of each priority has waited (0: none due).",
        labels=["priority"],
    )
    for priority in LANES:
        oldest.add_metric([str(priority)], reading.oldest_due.get(priority, 0.0))
    yield oldest
    yield _dead_family(reading, depth)
    backlog = GaugeMetricFamily(
        "scheduler_archive_backlog_jobs",
        "Finished jobs old enough to be archived that are still in the queue, by status.",
        labels=["status"],
    )
    for status, count in reading.archivable.items():
        backlog.add_metric([status], count)
    yield backlog
    yield GaugeMetricFamily(
        "scheduler_archive_lag_seconds",
        "How long the oldest job waiting to be archived has been old enough (0: none waits).",
        value=reading.archive_lag,
    )


def _dead_family(reading: BacklogReading, depth: list[tuple[str, int, int]]):
    help_text = "Dead jobs waiting in the DLQ (a retry, a discard or the archiver takes them)."
    if reading.dead_by_tenant is None:
        total = sum(
            count
            for status, priority, count in depth
            if status == JobStatus.DEAD and priority in TENANT_PRIORITIES
        )
        return GaugeMetricFamily("scheduler_dead_jobs", help_text, value=total)
    family = GaugeMetricFamily("scheduler_dead_jobs", help_text, labels=["tenant"])
    for tenant, count in sorted(reading.dead_by_tenant.items()):
        family.add_metric([tenant], count)
    return family
