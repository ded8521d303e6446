"""One scenario's frame: its endpoint, its processes, its faults and the wait for every
expected run, bounded in time; everything started is stopped on the way out."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.db import close_old_connections

from bench.reliability.endpoint import TenantEndpoint
from bench.reliability.faults import FaultLog
from bench.reliability.observe import Observed, Observer
from bench.reliability.processes import Settings, Stack
from bench.reliability.progress import Progress
from bench.reliability.report import Outcome
from bench.reliability.tenant_api import CreatedTask, campaign_tenant, create_tasks
from bench.reliability.workload import Run

POLL_SECONDS = 0.5


@dataclass
class Context:
    """What a scenario function works with."""

    name: str
    title: str
    settings: Settings
    work: Path
    stack: Stack
    endpoint: TenantEndpoint
    scale: float = 1.0
    progress: bool = True
    steady_seconds: float = 600.0  # how long the steady mix runs
    faults: FaultLog = field(default_factory=FaultLog)
    started: float = field(default_factory=time.time)
    labels: dict[str, str] = field(default_factory=dict)  # task id -> label
    tokens: dict[str, str] = field(default_factory=dict)  # tenant name -> token
    observer: Observer | None = None

    def n(self, count: int) -> int:
        """A count of the full-size scenario, scaled."""
        return max(1, int(count * self.scale))

    def create(self, bodies: list[dict], tenant: str = "tenant") -> list[CreatedTask]:
        if tenant not in self.tokens:
            self.tokens[tenant] = campaign_tenant(f"{self.name}-{tenant}")[1]
        tasks = create_tasks(self.stack.api_url, self.tokens[tenant], bodies)
        self.labels.update({task.id: task.label for task in tasks})
        return tasks

    def wait_for(
        self,
        expected: dict[tuple[str, str], Run],
        *,
        timeout: float,
        during: Callable[[float], None] | None = None,
        until: Callable[[Observed], bool] | None = None,
    ) -> Observed:
        """Poll the endpoint's log until every expected run was delivered or is dead (or
        `until` holds) and `during`, if it has steps, ran them all; `during(elapsed)` is
        called each turn to inject faults on time."""
        if self.observer is None:
            self.observer = Observer(self.endpoint.log_path, self.labels)
        progress = Progress(self.name, len(expected), enabled=self.progress)
        started = time.monotonic()
        try:
            while time.monotonic() - started < timeout:
                if during is not None:
                    during(time.monotonic() - started)
                close_old_connections()
                seen = self.observer.poll()
                done = sum(1 for k in expected if k in seen.delivered or k in seen.dead)
                progress.show(done, f"calls {seen.calls:,}")
                finished = until(seen) if until else done >= len(expected)
                if finished and getattr(during, "finished", True):
                    break
                time.sleep(POLL_SECONDS)
        finally:
            progress.close()
        return self.observer.poll()

    def outcome(self, expected: dict[tuple[str, str], Run], **extra) -> Outcome:
        seen = self.observer.poll() if self.observer else Observed()
        return Outcome(
            self.name,
            self.title,
            expected,
            seen,
            self.faults,
            self.started,
            time.time() - self.started,
            **extra,
        )


Scenario = Callable[[Context], Outcome]


def run_scenario(
    scenario: Scenario,
    *,
    name: str,
    title: str,
    settings: Settings,
    work: Path,
    scale: float = 1.0,
    progress: bool = True,
    steady_seconds: float = 600.0,
) -> Outcome:
    """Run one scenario in its own folder; every process and the endpoint are stopped at
    the end, whatever happens (Ctrl-C included). Process exit codes go into the notes."""
    work.mkdir(parents=True, exist_ok=True)
    settings.logs = work
    with ExitStack() as cleanup:
        endpoint = TenantEndpoint(work / "endpoint")
        cleanup.callback(endpoint.stop)
        stack = Stack(settings)
        codes: dict[str, int | None] = {}
        cleanup.callback(lambda: codes.update(stack.stop_all()))
        context = Context(
            name, title, settings, work, stack, endpoint, scale, progress, steady_seconds
        )
        outcome = scenario(context)
    outcome.notes["exit_codes"] = codes
    clean = all(code == 0 for name, code in codes.items() if name not in stack.killed)
    outcome.checks["every process left running stopped cleanly"] = clean
    return outcome


def iso_now() -> str:
    return datetime.now().isoformat(timespec="seconds")
