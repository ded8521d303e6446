"""The campaign's PNG, drawn with pillow: start delay over time with the faults marked
(bench/campaign.py). The other benchmarks' pictures are in bench/report.py."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

WIDTH, HEIGHT, MARGIN = 900, 420, 50
PRIORITY_COLOURS = {0: (220, 60, 60)}
OTHER_COLOUR = (70, 110, 200)
FAULT_COLOUR = (255, 225, 200)


def _canvas(title: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 15), title, fill="black")
    return image, draw


def _x_axis(draw: ImageDraw.ImageDraw, top: float, unit: str = "s") -> None:
    draw.line([MARGIN, HEIGHT - MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN], fill="black")
    for tick in range(0, 6):
        x = MARGIN + (WIDTH - 2 * MARGIN) * tick / 5
        draw.text((x - 10, HEIGHT - MARGIN + 8), f"{top * tick / 5:.1f}{unit}", fill="black")


def timeline_png(
    path: Path,
    points: list[tuple[float, float, int]],
    faults: list[tuple[str, float, float]],
    title: str,
) -> None:
    """Start delay (y) of each run's first call against its arrival (x, seconds from the
    scenario's start); faults shaded with their names. `points` are (x, delay, priority)."""
    image, draw = _canvas(title)
    if not points:
        image.save(path)
        return
    right = max(max(p[0] for p in points), max((f[2] for f in faults), default=0), 1.0)
    top = max(max(p[1] for p in points), 0.1)
    plot_w, plot_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN

    def x_of(seconds: float) -> float:
        return MARGIN + plot_w * max(0.0, seconds) / right

    def y_of(delay: float) -> float:
        return HEIGHT - MARGIN - plot_h * max(0.0, delay) / top

    for name, start, end in faults:
        draw.rectangle(
            [x_of(start), MARGIN, max(x_of(end), x_of(start) + 2), HEIGHT - MARGIN],
            fill=FAULT_COLOUR,
        )
        draw.text((x_of(start) + 3, MARGIN + 3), name[:40], fill=(160, 60, 0))
    step = max(1, len(points) // 20000)  # at most 20,000 dots
    for x, delay, priority in sorted(points, key=lambda p: p[2], reverse=True)[::step]:
        colour = PRIORITY_COLOURS.get(priority, OTHER_COLOUR)
        px, py = x_of(x), y_of(delay)
        draw.rectangle([px - 1, py - 1, px + 1, py + 1], fill=colour)
    draw.line([MARGIN, MARGIN, MARGIN, HEIGHT - MARGIN], fill="black")
    for tick in range(0, 6):
        y = y_of(top * tick / 5)
        draw.text((4, y - 6), f"{top * tick / 5:.1f}s", fill="black")
    _x_axis(draw, right)
    draw.text((WIDTH - 330, 15), "y: start delay  x: time  red: priority 0", fill="black")
    image.save(path)
