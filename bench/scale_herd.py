"""The herd: 100,000 one-off jobs due in one second through bench/burst.py's own pipeline
(its `run_ours`: scheduler, two executors, nginx recording every call), beside the 10,000
burst in the same run; every executor started with --max-held and its peak RSS sampled."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from bench import burst
from bench.report import table


@dataclass
class PeakRss:
    """Samples VmHWM (the kernel's own peak RSS) of every executor started, until stopped."""

    processes: list = field(default_factory=list)
    peak_kib: dict[int, int] = field(default_factory=dict)
    done: threading.Event = field(default_factory=threading.Event)

    def sample(self) -> None:
        for process in self.processes:
            try:
                status = Path(f"/proc/{process.pid}/status").read_text()
            except OSError:
                continue  # ended: its last sample stands
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    self.peak_kib[process.pid] = int(line.split()[1])

    def run(self) -> None:
        while not self.done.wait(0.2):
            self.sample()

    def max_mib(self) -> float:
        return max(self.peak_kib.values(), default=0) / 1024


def herd_run(name: str, jobs: int, max_held: int, lead: float, endpoint) -> tuple:
    """One burst of `jobs` (+100 priority 0) with every executor holding at most max_held."""
    peak = PeakRss()
    original = burst.start_manage

    def start_manage(args: list[str], log: Path):
        if args[0] == "run_executor":
            args = [*args, "--max-held", str(max_held)]
        process = original(args, log)
        if args[0] == "run_executor":
            peak.processes.append(process)
        return process

    burst.start_manage = start_manage  # burst.py is driven, not edited: its own starter wrapped
    sampler = threading.Thread(target=peak.run, daemon=True)
    sampler.start()
    try:
        settings = burst.Burst(jobs=jobs, critical=100, lead=lead)
        result = burst.run_ours(name, settings, endpoint.url, endpoint.record, endpoint.work)
    finally:
        burst.start_manage = original
        peak.done.set()
        sampler.join()
    return result, peak.max_mib()


def calls_per_second(result) -> float:
    return len(result.delays) / result.span if result.span else 0.0


def herd_report(runs: list[tuple], max_held: int) -> str:
    """runs: (Delivery, max RSS MiB) of the 10,000 burst and then the herd."""
    rows = [[*result.row(), rss] for result, rss in runs]
    (base, _), (herd, herd_rss) = runs
    ratio = calls_per_second(herd) / calls_per_second(base)
    verdict = "met" if ratio >= 0.9 and herd.lost == 0 else "NOT met"
    return "\n".join(
        [
            table([*burst.HEADERS, "executor max RSS MiB"], rows),
            f"ratio herd/burst calls/s: {ratio:.2f}   (goal >= 0.9, 0 lost: {verdict})",
            f"herd lost: {herd.lost}; executor max RSS {herd_rss:.0f} MiB with --max-held"
            f" {max_held}",
        ]
    )
