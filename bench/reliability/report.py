"""A scenario's figures: expected, delivered, lost, repeats with their cause, dead and why,
start delay percentiles, wall time; as JSON, a printed block and a summary table row."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.reliability.faults import FaultLog
from bench.reliability.observe import Observed
from bench.reliability.workload import Run

EXAMPLES = 20  # how many lost runs or repeats are listed one by one


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def delay_figures(delays: list[float]) -> dict:
    if not delays:
        return {"n": 0}
    ordered = sorted(delays)
    figures = {f"p{int(s * 100)}": round(percentile(ordered, s), 3) for s in (0.5, 0.95, 0.99)}
    return {"n": len(ordered), **figures, "max": round(ordered[-1], 3)}


@dataclass
class Outcome:
    """Everything measured in one scenario; `checks` are its own pass/fail conditions."""

    scenario: str
    title: str
    expected: dict[tuple[str, str], Run]
    seen: Observed
    faults: FaultLog
    started: float
    wall_seconds: float
    checks: dict[str, bool] = field(default_factory=dict)
    notes: dict[str, object] = field(default_factory=dict)

    def delays(self) -> list[tuple[float, float, int]]:
        """(arrival time, start delay, priority) of each expected run's first call."""
        points = []
        for run_key, keys in self._first_keys().items():
            arrival = self.seen.first[keys]
            delay = arrival.at - _epoch(run_key[1])
            points.append((arrival.at, delay, self.expected[run_key].priority))
        return points

    def _first_keys(self) -> dict[tuple[str, str], str]:
        firsts: dict[tuple[str, str], str] = {}
        for key, arrival in self.seen.first.items():
            run_key = (arrival.label, arrival.scheduled_at)
            if run_key in self.expected:
                best = firsts.get(run_key)
                if best is None or arrival.at < self.seen.first[best].at:
                    firsts[run_key] = key
        return firsts

    def as_json(self) -> dict:
        delivered = {k for k in self.expected if self.seen.delivered.get(k)}
        dead = {k: self.seen.dead[k] for k in self.expected if k in self.seen.dead}
        lost = sorted(set(self.expected) - delivered - set(dead))
        repeats = [a for a in self.seen.repeats() if (a.label, a.scheduled_at) in self.expected]
        twice = [k for k in delivered if len(self.seen.delivered[k]) > 1]
        by_priority: dict[int, list[float]] = defaultdict(list)
        by_group: dict[str, list[float]] = defaultdict(list)
        for run_key, key in self._first_keys().items():
            delay = self.seen.first[key].at - _epoch(run_key[1])
            by_priority[self.expected[run_key].priority].append(delay)
            by_group[run_key[0].split(".")[0]].append(delay)
        causes = Counter(self.faults.cause_of(a.at) for a in repeats)
        return {
            "scenario": self.scenario,
            "title": self.title,
            "expected": len(self.expected),
            "delivered_at_least_once": len(delivered),
            "lost": len(lost),
            "lost_examples": [list(k) for k in lost[:EXAMPLES]],
            "delivered_more_than_once": len(repeats),
            "repeats_by_fault": dict(causes),
            "repeats": [
                {
                    "idempotency_key": a.key,
                    "run": a.label,
                    "scheduled_at": a.scheduled_at,
                    "attempt": a.attempt,
                    "fault": self.faults.cause_of(a.at),
                }
                for a in repeats[:EXAMPLES]
            ],
            "runs_made_twice": len(twice),
            "dead": len(dead),
            "dead_by_reason": dict(Counter(_reason(d) for d in dead.values())),
            "calls_received": self.seen.calls,
            "start_delay_s": {
                "by_priority": {str(p): delay_figures(v) for p, v in sorted(by_priority.items())},
                "by_group": {g: delay_figures(v) for g, v in sorted(by_group.items())},
            },
            "faults": self.faults.as_json(self.started),
            "checks": self.checks,
            "notes": self.notes,
            "wall_seconds": round(self.wall_seconds, 1),
        }


def _reason(dead) -> str:
    return f"{dead.error} (attempt {dead.attempt} of {dead.max_attempts})"


def _epoch(header: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(header.replace("Z", "+00:00")).timestamp()


def save(figures: dict, folder: Path) -> Path:
    path = folder / f"{figures['scenario']}.json"
    path.write_text(json.dumps(figures, indent=2))
    return path


def worst_p99(figures: dict) -> str:
    values = [v.get("p99") for v in figures["start_delay_s"]["by_priority"].values()]
    values = [v for v in values if v is not None]
    return f"{max(values):.2f}" if values else "-"


def block(figures: dict) -> str:
    """The scenario's figures as printed after it ran."""
    lines = [
        f"== {figures['scenario']}: {figures['title']}",
        f"   expected {figures['expected']}  delivered>=1 {figures['delivered_at_least_once']}"
        f"  lost {figures['lost']}  repeats {figures['delivered_more_than_once']}"
        f" {figures['repeats_by_fault'] or ''}  made twice {figures['runs_made_twice']}"
        f"  dead {figures['dead']}  wall {figures['wall_seconds']}s",
    ]
    for reason, count in figures["dead_by_reason"].items():
        lines.append(f"   dead x{count}: {reason}")
    for priority, f in figures["start_delay_s"]["by_priority"].items():
        if f["n"]:
            lines.append(
                f"   priority {priority}: n={f['n']} p50 {f['p50']}s p95 {f['p95']}s"
                f" p99 {f['p99']}s max {f['max']}s"
            )
    for name, ok in figures["checks"].items():
        lines.append(f"   check {'ok  ' if ok else 'FAIL'} {name}")
    return "\n".join(lines)


def table(all_figures: list[dict]) -> str:
    """The summary table, in Markdown (printed and pasted into RELIABILITY.md)."""
    rows = [
        "| scenario | expected | delivered | lost | repeats | made twice | dead | worst p99"
        " | wall |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for f in all_figures:
        failed = [name for name, ok in f["checks"].items() if not ok]
        mark = f" (FAILED: {', '.join(failed)})" if failed else ""
        rows.append(
            f"| {f['scenario']}{mark} | {f['expected']:,} | {f['delivered_at_least_once']:,} "
            f"| {f['lost']} | {f['delivered_more_than_once']} | {f['runs_made_twice']} "
            f"| {f['dead']} | {worst_p99(f)} s | {f['wall_seconds']:.0f} s |"
        )
    return "\n".join(rows)
