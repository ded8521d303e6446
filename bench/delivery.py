"""What the endpoint saw of one burst: the nginx access log (one line per call: arrival in ms,
Idempotency-Key, X-Scheduled-At, X-Attempt) read into start delays, losses and duplicates."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bench.report import percentile

if TYPE_CHECKING:
    from bench.callback_tally import CallbackTally


@dataclass
class Delivery:
    name: str
    rest: list[float]
    critical: list[float]
    lost: int
    duplicates: int
    span: float  # seconds from the first call to the last
    callbacks: CallbackTally | None = None  # with callbacks: what became of them

    @property
    def delays(self) -> list[float]:
        return self.rest + self.critical

    def p(self, share: float, critical: bool = False) -> float:
        values = self.critical if critical else self.delays
        return percentile(values, share) if values else float("nan")

    def row(self) -> list[object]:
        rate = len(self.delays) / self.span if self.span else 0.0
        last = max(self.delays, default=float("nan"))
        return [
            self.name,
            self.p(0.5),
            self.p(0.99),
            last,
            self.p(0.99, critical=True),
            round(rate),
            self.lost,
            self.duplicates,
        ]


HEADERS = ["run", "p50 s", "p99 s", "last s", "prio 0 p99 s", "calls/s", "lost", "dup"]


def read_calls(record: Path) -> list[tuple[float, str, float]]:
    """(arrival, key, scheduled time) of every call that said when it was due (a bare
    client's calls do not), as epoch seconds."""
    calls = []
    for line in record.read_text().splitlines():
        at, key, scheduled, _attempt = line.split(",") if line else ("", "", "-", "")
        if scheduled == "-":
            continue
        moment = datetime.fromisoformat(scheduled.replace("Z", "+00:00")).timestamp()
        calls.append((float(at), key, moment))
    return calls


def delivery(name: str, calls: list, groups: dict[str, str], expected: int) -> Delivery:
    """`groups` maps each key of this run to "critical" or "rest"; calls of other keys (an
    earlier run on the same endpoint) are left out. A key never called counts as lost, and so
    does each of the `expected` runs that never got a key."""
    mine = [call for call in calls if call[1] in groups]
    per_key = Counter(call[1] for call in mine)
    first: dict[str, float] = {}
    for at, key, moment in sorted(mine):
        first.setdefault(key, at - moment)
    rest = [delay for key, delay in first.items() if groups[key] == "rest"]
    critical = [delay for key, delay in first.items() if groups[key] == "critical"]
    arrivals = [call[0] for call in mine]
    span = max(arrivals) - min(arrivals) if arrivals else 0.0
    lost = expected - len(first)
    return Delivery(name, rest, critical, lost, sum(n - 1 for n in per_key.values()), span)


class LogCounter:
    """Lines added to a log since it was opened: the progress of a run, without a query."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0
        self.count = 0

    def poll(self) -> int:
        if self.path.exists():
            with self.path.open("rb") as log:
                log.seek(self.offset)
                chunk = log.read()
            self.offset += len(chunk)
            self.count += chunk.count(b"\n")
        return self.count
