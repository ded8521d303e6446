"""Charts drawn on the server as inline SVG (no script, no library): stacked bars of counts
and lines of durations over time slots, with axes, ticks and a legend. Each function returns
the geometry the template console/chart.html draws."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 12, 28, 34  # room for the axes' labels and the legend
GAP = 0.2  # of a slot's width between two bars: neighbouring slots stay apart


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    values: list[float | None]


@dataclass
class Chart:
    id: str
    title: str
    unit: str
    width: int = WIDTH
    height: int = HEIGHT
    y_ticks: list[tuple[float, str]] = field(default_factory=list)  # (y, label)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)  # (x, label)
    bars: list[tuple[float, float, float, float, str, str]] = field(default_factory=list)
    lines: list[tuple[str, str, str]] = field(default_factory=list)  # (points, color, name)
    legend: list[tuple[str, str]] = field(default_factory=list)  # (color, name)
    empty: bool = True
    left: int = LEFT
    top: int = TOP
    plot_right: int = WIDTH - RIGHT
    plot_bottom: int = HEIGHT - BOTTOM


def nice_top(value: float) -> float:
    """The top of an axis of four equal steps at or above `value`, each step 1, 2, 2.5 or 5
    times a power of ten (so every tick reads round); 1 for nothing."""
    if value <= 0:
        return 1.0
    quarter = value / 4
    power = 10 ** math.floor(math.log10(quarter))
    return 4 * next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= quarter)


def _frame(chart: Chart, starts: list[datetime], top: float, every: int, fmt) -> None:
    plot_height = chart.plot_bottom - chart.top
    for index in range(5):
        value = top * index / 4
        chart.y_ticks.append((chart.plot_bottom - plot_height * index / 4, fmt(value)))
    for index, start in enumerate(starts):
        if index % every == 0:
            chart.x_ticks.append((_x(chart, index, len(starts)), f"{start:%H:%M}"))


def _x(chart: Chart, index: float, count: int) -> float:
    return chart.left + (chart.plot_right - chart.left) * index / count


def _y(chart: Chart, value: float, top: float) -> float:
    return chart.plot_bottom - (chart.plot_bottom - chart.top) * value / top


def stacked_bars(id, title, starts, series: list[Series], *, every: int) -> Chart:
    chart = Chart(id=id, title=title, unit="attempts")
    totals = [sum(s.values[i] or 0 for s in series) for i in range(len(starts))]
    top = nice_top(max(totals, default=0))
    _frame(chart, starts, top, every, lambda v: f"{v:g}")
    width = (chart.plot_right - chart.left) / max(len(starts), 1)
    for index, start in enumerate(starts):
        base = 0.0
        for one in series:
            value = one.values[index] or 0
            if value:
                y = _y(chart, base + value, top)
                height = _y(chart, base, top) - y
                tip = f"{start:%H:%M} UTC: {value:g} {one.name}"
                x = _x(chart, index, len(starts)) + width * GAP / 2
                chart.bars.append((x, y, width * (1 - GAP), height, one.color, tip))
                base += value
    chart.legend = [(one.color, one.name) for one in series]
    chart.empty = not any(totals)
    return chart


def lines(id, title, starts, series: list[Series], *, every: int) -> Chart:
    chart = Chart(id=id, title=title, unit="")  # the ticks name their unit (ms, s)
    values = [v for one in series for v in one.values if v is not None]
    top = nice_top(max(values, default=0))
    _frame(chart, starts, top, every, _seconds)
    for one in series:
        points = " ".join(
            f"{_x(chart, index + 0.5, len(starts)):.1f},{_y(chart, value, top):.1f}"
            for index, value in enumerate(one.values)
            if value is not None
        )
        chart.lines.append((points, one.color, one.name))
    chart.legend = [(one.color, one.name) for one in series]
    chart.empty = not values
    return chart


def _seconds(value: float) -> str:
    return f"{value * 1000:g} ms" if 0 < value < 1 else f"{value:g} s"
