"""What the operators' dashboard shows, each figure read from the queue's wake index: the
queue by status and priority, due but unclaimed jobs, recent deaths, the age of the oldest
due job per priority; the attempts and start delays of the last hour and day (from the
per-minute counts); each process's last heartbeat; and the flows whose circuit is open or
half-open."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from console.charts import Chart
from console.timeline import timeline_charts
from execution.metrics import read_queue
from execution.models import ProcessHeartbeat
from flows.models import CircuitState, Flow
from jobs.models import Job, JobStatus
from jobs.oldest_due import oldest_due_ages

PROCESSES = ("scheduler", "executor", "reconciler", "archiver")
# A process whose last good turn is older than this is shown as late.
LATE_AFTER = timedelta(seconds=30)
SHOWN_FOR = timedelta(days=1)
OPEN_CIRCUITS_SHOWN = 50  # the longest open first; the flows list filters the rest


@dataclass(frozen=True)
class Heartbeat:
    name: str
    instance_id: str | None
    last_seen: datetime | None
    late: bool


@dataclass(frozen=True)
class Dashboard:
    taken_at: datetime
    depth: dict[str, dict[int, int]]  # status -> priority -> jobs
    due_unclaimed: int
    dead_last_hour: int
    dead_last_day: int
    heartbeats: list[Heartbeat]
    open_circuits: list[Flow]
    oldest_due: dict[int, float]  # priority -> seconds its oldest due job has waited
    charts: list[Chart]

    @property
    def priorities(self) -> list[int]:
        return sorted({priority for row in self.depth.values() for priority in row})


def read_dashboard() -> Dashboard:
    now = timezone.now()
    reading = read_queue()
    depth: dict[str, dict[int, int]] = {status: {} for status in JobStatus.values}
    for status, priority, count in reading.depth:
        depth.setdefault(status, {})[priority] = count
    return Dashboard(
        taken_at=now,
        depth=depth,
        due_unclaimed=reading.due_unclaimed,
        dead_last_hour=_dead_since(now - timedelta(hours=1)),
        dead_last_day=_dead_since(now - timedelta(days=1)),
        heartbeats=read_heartbeats(now),
        open_circuits=read_open_circuits(),
        oldest_due=oldest_due_ages(now),
        charts=timeline_charts(now),
    )


def read_open_circuits() -> list[Flow]:
    flows = Flow.objects.exclude(circuit_state=CircuitState.CLOSED).select_related("tenant")
    return list(flows.order_by("opened_at", "id")[:OPEN_CIRCUITS_SHOWN])


def _dead_since(moment: datetime) -> int:
    # A dead row's wake_at is its end: the count walks the dead rows' entries of the wake
    # index (every priority and tenant), never the table; the archiver keeps two weeks.
    return Job.objects.filter(status=JobStatus.DEAD, wake_at__gte=moment).count()


def read_heartbeats(now: datetime) -> list[Heartbeat]:
    """Every instance seen in the last day, and a line for each expected process never
    seen (one that never ran is as worth noticing as one that stopped)."""
    rows = ProcessHeartbeat.objects.filter(last_seen__gte=now - SHOWN_FOR).order_by(
        "name", "-last_seen"
    )
    beats = [
        Heartbeat(row.name, row.instance_id, row.last_seen, now - row.last_seen > LATE_AFTER)
        for row in rows
    ]
    seen = {beat.name for beat in beats}
    beats += [Heartbeat(name, None, None, True) for name in PROCESSES if name not in seen]
    return sorted(beats, key=lambda beat: (beat.name, beat.instance_id or ""))
