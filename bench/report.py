"""What every benchmark shows a person: a progress bar on stderr, a fixed-width summary table,
and PNG plots of start delay (drawn with pillow, so no plotting stack is needed)."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

COLOURS = [
    (70, 110, 200),
    (220, 60, 60),
    (40, 150, 70),
    (200, 140, 20),
    (130, 70, 170),
    (20, 160, 170),
]


class Progress:
    """A one-line bar on stderr, so stdout keeps only the figures."""

    def __init__(self, label: str, total: int, width: int = 30) -> None:
        self.label, self.total, self.width = label, max(total, 1), width
        self.started = time.monotonic()
        self._drawn = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if now - self._drawn < 0.2 and done < self.total:
            return  # redrawing more often only costs CPU on a machine that is measured
        self._drawn = now
        filled = int(self.width * min(done, self.total) / self.total)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = now - self.started
        sys.stderr.write(f"\r{self.label:<24} [{bar}] {done:>8,}/{self.total:,} {elapsed:6.1f}s")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Fixed-width columns: text left-aligned, numbers right-aligned."""
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(r) for r in cells)])


def _is_number(value: object) -> bool:
    return isinstance(value, int | float)


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def started_curve_png(path: Path, title: str, runs: dict[str, Sequence[float]]) -> None:
    """Calls started so far against seconds after the due time, one line per run: where a
    line rises is the throughput, where it ends is the last call."""
    width, height, margin = 900, 420, 60
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    right = max((max(d) for d in runs.values() if d), default=1.0) * 1.05 or 1.0
    top = max((len(d) for d in runs.values()), default=1) or 1
    plot_w, plot_h = width - 2 * margin, height - 2 * margin
    for n, (name, delays) in enumerate(runs.items()):
        colour = COLOURS[n % len(COLOURS)]
        points = [
            (margin + plot_w * max(d, 0) / right, height - margin - plot_h * (i + 1) / top)
            for i, d in enumerate(sorted(delays))
        ]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        # The legend sits in a row above the plot, where no line can run under it; six
        # names to a row (bench/peer.py's two rounds of three sides fill one).
        row, column = divmod(n, 6)
        draw.text(
            (margin + 140 * column, 34 + 12 * row), f"{name} (n={len(delays):,})", fill=colour
        )
    _axes(draw, width, height, margin, right, "s after due time")
    draw.text((margin, 15), title, fill="black")
    draw.text((6, margin - 12), f"{top:,} calls", fill="black")
    image.save(path)


def histogram_png(path: Path, title: str, series: dict[str, Sequence[float]]) -> None:
    """Start delay histogram: the first series filled, the others outlined."""
    width, height, margin, bins = 900, 420, 50, 60
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    right = max((max(v) for v in series.values() if v), default=1.0) or 1.0
    size = right / bins
    counts = {
        name: Counter(min(bins - 1, int(v / size)) for v in values)
        for name, values in series.items()
    }
    peak = max((max(c.values(), default=1) for c in counts.values()), default=1)
    bar = (width - 2 * margin) / bins
    for n, (name, counter) in enumerate(counts.items()):
        colour = COLOURS[n % len(COLOURS)]
        for index, count in counter.items():
            x0 = margin + index * bar
            y0 = height - margin - (height - 2 * margin) * count / peak
            box = [x0, y0, x0 + bar - 1, height - margin]
            draw.rectangle(box, outline=colour, fill=colour if n == 0 else None, width=2)
        draw.text((width - 260, 15 + 14 * n), name, fill=colour)
    _axes(draw, width, height, margin, right, "start delay")
    draw.text((margin, 15), title, fill="black")
    image.save(path)


def _axes(draw: ImageDraw.ImageDraw, width: int, height: int, margin: int, right: float, x: str):
    draw.line([margin, height - margin, width - margin, height - margin], fill="black")
    draw.line([margin, margin, margin, height - margin], fill="black")
    for tick in range(6):
        at = margin + (width - 2 * margin) * tick / 5
        draw.text((at - 10, height - margin + 8), f"{right * tick / 5:.1f}s", fill="black")
    draw.text((width // 2 - 40, height - 20), x, fill="black")
