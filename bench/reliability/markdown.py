"""RELIABILITY.md's figures from a campaign's summary.json:
    python -m bench.reliability.markdown bench/reliability-results/summary.json
prints the table and one section per scenario (its figures, checks, picture, command)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def section(figures: dict, pictures: str) -> str:
    name = figures["scenario"]
    lines = [f"### {name}: {figures['title']}", ""]
    lines.append(
        f"{figures['expected']:,} runs expected, {figures['delivered_at_least_once']:,} delivered"
        f" at least once, **{figures['lost']} lost**, {figures['delivered_more_than_once']}"
        f" delivered more than once{_causes(figures)}, {figures['runs_made_twice']} runs made"
        f" twice, {figures['dead']} dead; {figures['calls_received']:,} calls received;"
        f" wall {figures['wall_seconds']:.0f} s."
    )
    for reason, count in figures["dead_by_reason"].items():
        lines.append(f"Dead: {count} x `{reason}`.")
    faults = "; ".join(
        f"{f['name']} at {f['at_s']:.0f} s for {f['for_s']:.0f} s" for f in figures["faults"]
    )
    if faults:
        lines.append(f"Faults: {faults}.")
    lines += ["", "| start delay | n | p50 | p95 | p99 | max |", "|---|---|---|---|---|---|"]
    delays = figures["start_delay_s"]
    rows = [(f"priority {p}", f) for p, f in delays["by_priority"].items()]
    if len(delays["by_group"]) > 1:
        rows += [(f"group {g}", f) for g, f in delays["by_group"].items()]
    for label, f in rows:
        if f["n"]:
            lines.append(
                f"| {label} | {f['n']:,} | {f['p50']} s | {f['p95']} s | {f['p99']} s"
                f" | {f['max']} s |"
            )
    lines.append("")
    for check, ok in figures["checks"].items():
        lines.append(f"- {'met' if ok else '**not met**'}: {check}")
    notes = {k: v for k, v in figures["notes"].items() if k != "exit_codes"}
    for key, value in notes.items():
        lines.append(f"- {key}: {json.dumps(value) if not isinstance(value, str) else value}")
    lines += ["", f"![{name}]({pictures}/{name}.png)", "", f"Reproduce: `{figures['command']}`"]
    return "\n".join(lines)


def _causes(figures: dict) -> str:
    causes = figures["repeats_by_fault"]
    if not causes:
        return ""
    return " (" + ", ".join(f"{count} after {name}" for name, count in causes.items()) + ")"


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()  # the report's module reads the job models
    from bench.reliability.report import table

    summary = Path(sys.argv[1])
    results = json.loads(summary.read_text())
    print(table(results))
    for figures in results:
        print()
        print(section(figures, str(summary.parent)))


if __name__ == "__main__":
    main()
