"""The dashboard's time axis: attempts per slot (delivered, failed, dead) and the start
delay's p50 and p99, for the last hour (by minute) and the last day (by 15 minutes), read
from the per-minute counts (jobs/minute_reads.py)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from console.charts import Chart, Series, lines, stacked_bars
from jobs.minute_reads import Slot, window_slots

# (name, span, slot, a time label every n slots)
WINDOWS = (
    ("hour", timedelta(hours=1), timedelta(minutes=1), 10),
    ("day", timedelta(days=1), timedelta(minutes=15), 12),
)
OUTCOME_COLORS = (("delivered", "#2e8540"), ("failed", "#e0a100"), ("dead", "#ba2121"))


def timeline_charts(now: datetime, tenant_id: uuid.UUID | None = None) -> list[Chart]:
    """Per window, the attempts chart then the start delay chart."""
    charts = []
    for name, span, step, every in WINDOWS:
        slots = window_slots(end=now, span=span, step=step, tenant_id=tenant_id)
        charts += _window_charts(name, slots, step, every)
    return charts


def _window_charts(name: str, slots: list[Slot], step: timedelta, every: int) -> list[Chart]:
    starts = [slot.start for slot in slots]
    per = "minute" if step == timedelta(minutes=1) else f"{int(step.total_seconds() // 60)} min"
    span = "last hour" if name == "hour" else "last day"
    outcomes = [
        Series(outcome, color, [getattr(slot, outcome) for slot in slots])
        for outcome, color in OUTCOME_COLORS
    ]
    delays = [
        Series("p50", "#447e9b", [slot.p50 for slot in slots]),
        Series("p99", "#8a3ab9", [slot.p99 for slot in slots]),
    ]
    return [
        stacked_bars(
            f"attempts-{name}", f"Attempts per {per}, {span}", starts, outcomes, every=every
        ),
        lines(f"delay-{name}", f"Start delay, {span}", starts, delays, every=every),
    ]
