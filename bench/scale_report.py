"""The scale benchmark's table: each figure at the small and the large size (medians over
the rounds) and their ratio, with the goal where the issue names one."""

from __future__ import annotations

import statistics

from bench.report import table

# The one goal here: the tick at 1,000,000 tasks at most 1.2x the same at 20,000.
GOALS = {"tick 1,000 due": 1.2, "tick 10,000 due": 1.2}


def medians(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {name: statistics.median(r[name] for r in rounds) for name in rounds[0]}


def ratio(small: float, large: float) -> float:
    if small == 0:  # a count that is 0 at the small size (pages read from disk)
        return 1.0 if large == 0 else float("inf")
    return large / small


def ratio_lines(small: dict[str, float], large: dict[str, float], labels: tuple[str, str]):
    """One line per figure: `<figure>: <large> / <small>: X.XXx`, and the goal if any."""
    lines = []
    for name, value in small.items():
        times = ratio(value, large[name])
        goal = GOALS.get(name)
        verdict = f"   (goal <= {goal}x: {'met' if times <= goal else 'NOT met'})" if goal else ""
        lines.append(f"ratio {name}, {labels[1]} / {labels[0]}: {times:.2f}x{verdict}")
    return lines


def report(small_rounds: list[dict], large_rounds: list[dict], labels: tuple[str, str]) -> str:
    small, large = medians(small_rounds), medians(large_rounds)
    rows = [[name, small[name], large[name], ratio(small[name], large[name])] for name in small]
    headers = ["figure (median ms, or as named)", labels[0], labels[1], "ratio"]
    return "\n".join([table(headers, rows), *ratio_lines(small, large, labels)])
