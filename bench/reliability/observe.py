"""What reached the endpoint, read from nginx's log as it grows, and what the queue holds
as dead."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection
from django.db.utils import OperationalError

from bench.reliability.endpoint import Arrival, parse_line
from execution.delivery import scheduled_at_header
from jobs.models import Job, JobStatus


class LogTail:
    """Reads the complete lines appended to a file since the last read."""

    def __init__(self, path: Path) -> None:
        self.path, self.offset, self.rest = path, 0, b""

    def new_lines(self) -> list[str]:
        if not self.path.exists():
            return []
        with self.path.open("rb") as log:
            log.seek(self.offset)
            chunk = log.read()
        self.offset += len(chunk)
        data = self.rest + chunk
        lines = data.split(b"\n")
        self.rest = lines.pop()
        return [line.decode(errors="replace") for line in lines]


@dataclass
class DeadJob:
    key: str
    label: str
    scheduled_at: str
    attempt: int
    max_attempts: int
    error: str


@dataclass
class Observed:
    """Every arrival, folded by job (Idempotency-Key) and by run (label, scheduled_at)."""

    calls: int = 0
    first: dict[str, Arrival] = field(default_factory=dict)  # first arrival of each key
    arrivals: dict[str, list[Arrival]] = field(default_factory=lambda: defaultdict(list))
    delivered: dict[tuple[str, str], set[str]] = field(default_factory=lambda: defaultdict(set))
    dead: dict[tuple[str, str], DeadJob] = field(default_factory=dict)

    def add(self, arrival: Arrival) -> None:
        self.calls += 1
        self.first.setdefault(arrival.key, arrival)
        self.arrivals[arrival.key].append(arrival)
        if arrival.delivered:
            self.delivered[(arrival.label, arrival.scheduled_at)].add(arrival.key)

    def repeats(self) -> list[Arrival]:
        """Every 2xx arrival of a job after its first 2xx one: a delivery made again."""
        found = []
        for calls in self.arrivals.values():
            found += [a for a in calls if a.delivered][1:]
        return found


class Observer:
    def __init__(self, log_path: Path, labels: dict[str, str]) -> None:
        self.tail = LogTail(log_path)
        self.labels = labels  # task id -> label
        self.seen = Observed()
        self._dead_count = -1

    def poll(self) -> Observed:
        for line in self.tail.new_lines():
            arrival = parse_line(line)
            if arrival is not None:
                self.seen.add(arrival)
        self._read_dead()
        return self.seen

    def _read_dead(self) -> None:
        dead = Job.objects.filter(status=JobStatus.DEAD)
        try:
            count = dead.count()
        except OperationalError:  # the database is cut or restarting: read it next time
            connection.close()
            return
        if count == self._dead_count:
            return
        self._dead_count = count
        fields = ("id", "task_id", "scheduled_at", "attempt", "max_attempts", "error")
        for key, task, at, attempt, most, error in dead.values_list(*fields):
            label = self.labels.get(str(task), str(task))
            run = (label, scheduled_at_header(at))
            self.seen.dead[run] = DeadJob(str(key), label, run[1], attempt, most, error or "")
