"""What the scenarios ask for: task bodies for the API, and the runs they must produce."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bench.reliability.endpoint import TenantEndpoint
from bench.reliability.tenant_api import CreatedTask
from execution.delivery import scheduled_at_header
from tasks.schedule import next_cron_run

ZONES = (
    "UTC",
    "Europe/Madrid",
    "Europe/London",
    "America/New_York",
    "America/Los_Angeles",
    "America/Sao_Paulo",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Sydney",
    "Pacific/Auckland",
    "Africa/Nairobi",
)
# The steady mix: every minute, every five minutes at a stable offset, hourly and daily at
# a stable minute (Jenkins-style H).
MIX = (("* * * * *", 0.55), ("H/5 * * * *", 0.30), ("H * * * *", 0.10), ("H H * * *", 0.05))


@dataclass(frozen=True)
class Run:
    """One run a task must make: its label and scheduled instant as X-Scheduled-At."""

    label: str
    scheduled_at: str
    priority: int


def at_iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def one_off(
    endpoint: TenantEndpoint,
    location: str,
    group: str,
    count: int,
    due: datetime,
    *,
    spread: float = 0.0,
    **fields: object,
) -> list[dict]:
    """`count` one-off tasks due at `due` (or spread evenly over `spread` seconds)."""
    bodies = []
    for n in range(count):
        label = f"{group}.{n}"
        at = due + timedelta(seconds=spread * n / max(count, 1))
        bodies.append(
            {"name": label, "run_at": at_iso(at), "url": endpoint.url(location, label), **fields}
        )
    return bodies


def steady_mix(endpoint: TenantEndpoint, group: str, count: int, seed: int = 12) -> list[dict]:
    """`count` cron tasks of the mix, in a dozen time zones, answered at once."""
    chooser = random.Random(seed)
    expressions = [cron for cron, _ in MIX]
    weights = [share for _, share in MIX]
    bodies = []
    for n in range(count):
        label = f"{group}.{n}"
        bodies.append(
            {
                "name": label,
                "cron": chooser.choices(expressions, weights)[0],
                "timezone": ZONES[n % len(ZONES)],
                "url": endpoint.url("ok", label),
            }
        )
    return bodies


def expected_runs(tasks: list[CreatedTask], until: datetime) -> dict[tuple[str, str], Run]:
    """Every run the tasks must make before `until`, keyed by (label, X-Scheduled-At)."""
    runs: dict[tuple[str, str], Run] = {}
    for task in tasks:
        moment = datetime.fromisoformat(task.next_run_at.replace("Z", "+00:00"))
        while moment is not None and moment < until:
            run = Run(task.label, scheduled_at_header(moment), task.priority)
            runs[(run.label, run.scheduled_at)] = run
            if task.cron is None:
                break
            moment = next_cron_run(task.cron, task.timezone, task.id, moment)
    return runs
