"""Issue 20's benchmark in one sitting: the plain burst (no flows) on this code and on the
code before flows (a worktree of another commit), alternated, and the flows burst beside
them; each run is bench/burst.py in a process of its own on a fresh database.

    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/flows_sitting.py \
        --before /tmp/bench-before --rounds 2

Prints every run, then the verdicts: the plain burst now / before (p99 and calls/s, goal
within 10%), the free tasks' p99 beside the flows (goal < 1 s), every flow within its
parallelism at the destination.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.bootstrap  # noqa: E402,F401 - sets up Django (the machine line reads the server)
from bench import mariadb  # noqa: E402
from bench.common import machine_line  # noqa: E402
from bench.harness import ROOT  # noqa: E402
from bench.report import table  # noqa: E402


@dataclass
class Run:
    round: int
    code: str  # "before", "now" or "flows"
    load: float  # the 1-minute load average as the run started
    figures: dict


def burst(tree: Path, args: list[str], log: Path) -> str:
    """bench/burst.py of `tree` with `args`: its stdout (its progress bar goes to `log`)."""
    with log.open("ab") as err:
        done = subprocess.run(
            [sys.executable, "bench/burst.py", *args], cwd=tree, stdout=subprocess.PIPE, stderr=err
        )
    if done.returncode:
        sys.stdout.write(done.stdout.decode())
        raise SystemExit(f"bench/burst.py {' '.join(args)} in {tree} failed: see {log}")
    return done.stdout.decode()


def commit_of(tree: Path) -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True
    )
    dirty = subprocess.run(["git", "status", "--porcelain", "-uno"], cwd=tree, capture_output=True)
    return done.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def plain_figures(out: str) -> dict:
    """The row `ours` of the plain burst's table (the same columns before and now)."""
    row = next(line for line in out.splitlines() if line.startswith("ours "))
    cells = [float(cell.replace(",", "")) for cell in row.split()[1:]]
    cells[4:] = [round(cell) for cell in cells[4:]]  # calls/s, lost, duplicates
    names = ["p50", "p99", "last", "prio0_p99", "rate", "lost", "dup"]
    return dict(zip(names, cells, strict=True))


def flows_figures(out: str) -> dict:
    line = next(line for line in out.splitlines() if line.startswith("FLOWS "))
    return json.loads(line.removeprefix("FLOWS "))


def one_run(code: str, n: int, options, work: Path) -> Run:
    load = os.getloadavg()[0]
    sizes = ["--jobs", str(options.jobs), "--critical", str(options.critical)]
    png = ["--png", str(work / f"{code}-{n}.png")]
    log = work / "progress.log"
    if code == "flows":
        flows = [
            *("--flows", str(options.flows), "--flow-parallelism", str(options.parallelism)),
            *("--free", str(options.free), "--flow-delay-ms", str(options.delay_ms)),
        ]
        figures = flows_figures(burst(ROOT, [*sizes, *flows], log))
    else:
        tree = options.before if code == "before" else ROOT
        figures = plain_figures(burst(tree, [*sizes, *png], log))
    print(f"round {n} {code}: done (load {load:.2f}) {json.dumps(figures)}", file=sys.stderr)
    return Run(n, code, load, figures)


def sitting(options) -> list[Run]:
    """Before and now alternate which goes first each round; the flows burst goes between
    them in odd rounds, first in even ones."""
    work = Path(tempfile.mkdtemp(prefix="bench-flows-sitting-"))
    runs = []
    for n in range(1, options.rounds + 1):
        order = ("before", "flows", "now") if n % 2 else ("flows", "now", "before")
        runs += [one_run(code, n, options, work) for code in order]
    return runs


def report(runs: list[Run], options, machine: str) -> None:
    print(machine)
    loads = [run.load for run in runs]
    print(
        f"{options.rounds} rounds; load average {min(loads):.1f}-{max(loads):.1f}; before ="
        f" {options.before_label} ({options.before}), now = {commit_of(ROOT)} ({ROOT})"
    )
    print(f"plain burst: {options.jobs} + {options.critical} priority 0 due at one second")
    plain = [r for r in runs if r.code != "flows"]
    heads = ["round", "code", "p50 s", "p99 s", "last s", "prio 0 p99 s", "calls/s", "lost", "dup"]
    keys = ["p50", "p99", "last", "prio0_p99", "rate", "lost", "dup"]
    print(table(heads, [[r.round, r.code, *(r.figures[k] for k in keys)] for r in plain]))
    report_plain_ratio(runs, options.rounds)
    report_flows([r for r in runs if r.code == "flows"], options)


def report_plain_ratio(runs: list[Run], rounds: int) -> None:
    p99s, rates = [], []
    for n in range(1, rounds + 1):
        now = next(r.figures for r in runs if r.round == n and r.code == "now")
        before = next(r.figures for r in runs if r.round == n and r.code == "before")
        p99s.append(now["p99"] / before["p99"])
        rates.append(now["rate"] / before["rate"])
        print(f"round {n} now / before: p99 {p99s[-1]:.2f}x, calls/s {rates[-1]:.2f}x")
    p99, rate = sum(p99s) / rounds, sum(rates) / rounds
    met = p99 <= 1.10 and rate >= 0.90
    print(
        f"plain burst now / before flows, mean of the rounds: p99 {p99:.2f}x, calls/s"
        f" {rate:.2f}x (goal: no more than 10% worse, p99 <= 1.10x and calls/s >= 0.90x:"
        f" {'met' if met else 'NOT met'})"
    )


def report_flows(runs: list[Run], options) -> None:
    print(
        f"flows burst: {options.jobs} + {options.critical} over {options.flows} flow keys"
        f" (parallelism {options.parallelism}, each call held {options.delay_ms:g} ms at the"
        f" destination) beside {options.free} tasks without a flow, due in the same second"
    )
    heads = ["round", "free p50 s", "free p99 s", "free max s", "limited p99 s"]
    heads += ["limited drain s", "limited calls/s", "most in flight", "lost", "dup", "charged"]
    rows = []
    for r in runs:
        f = r.figures
        most = max(f["most_in_flight"].values(), default=0)
        rows.append(
            [r.round, f["free_p50"], f["free_p99"], f["free_max"], f["limited_p99"]]
            + [f["limited_drain"], round(f["limited_rate"]), most]
            + [f["lost"], f["duplicates"], f["charged"]]
        )
    print(table(heads, rows))
    free = max(r.figures["free_p99"] for r in runs)
    within = all(r.figures["within_limits"] for r in runs)
    print(
        f"free tasks' p99, worst run: {free:.2f} s (goal < 1 s: {'met' if free < 1 else 'NOT met'})"
    )
    print(f"every flow within its parallelism in every run: {'yes' if within else 'NO'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="worktree of the old code")
    parser.add_argument("--before-label", default="8433c58^", help="its commit, as printed")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--critical", type=int, default=100)
    parser.add_argument("--free", type=int, default=1_000)
    parser.add_argument("--flows", type=int, default=10)
    parser.add_argument("--parallelism", type=int, default=50)
    parser.add_argument("--delay-ms", type=float, default=100.0)
    options = parser.parse_args()
    # The machine line first: its database must exist (the runs make their own), and a
    # sitting of minutes must not be lost to a report that fails at its end.
    mariadb.connect(mariadb.server()[1]).close()
    machine = machine_line()
    report(sitting(options), options, machine)


if __name__ == "__main__":
    main()
