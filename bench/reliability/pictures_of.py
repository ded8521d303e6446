"""The PNG of one scenario: start delay over time, faults shaded."""

from __future__ import annotations

from pathlib import Path

from bench.pictures import timeline_png
from bench.reliability.report import Outcome


def picture(outcome: Outcome, path: Path) -> None:
    points = outcome.delays()
    origin = min((p[0] for p in points), default=outcome.started)
    origin = min(origin, outcome.started)
    shifted = [(at - origin, delay, priority) for at, delay, priority in points]
    faults = [(f.name, f.start - origin, f.end - origin) for f in outcome.faults.faults]
    timeline_png(path, shifted, faults, f"{outcome.scenario}: {outcome.title}")
