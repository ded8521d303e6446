"""The faults a scenario injects, each with when it started and ended, so that a repeated
delivery can be put down to the fault that caused it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

# A delivery repeated this long after a fault ended is still that fault's doing: the
# reconciler returns a killed or stopped executor's jobs only when their leases expire.
AFTERMATH_SECONDS = 120.0


@dataclass
class Fault:
    name: str
    start: float
    end: float


class FaultLog:
    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def instant(self, name: str) -> Fault:
        now = time.time()
        fault = Fault(name, now, now)
        self.faults.append(fault)
        return fault

    def begin(self, name: str) -> Fault:
        return self.instant(name)

    def finish(self, fault: Fault) -> None:
        fault.end = time.time()

    @contextmanager
    def window(self, name: str) -> Iterator[Fault]:
        fault = self.instant(name)
        try:
            yield fault
        finally:
            fault.end = time.time()

    def cause_of(self, at: float) -> str:
        """The latest fault that began before `at` and whose aftermath covers it."""
        causes = [f for f in self.faults if f.start <= at <= f.end + AFTERMATH_SECONDS]
        return causes[-1].name if causes else "no fault (unexplained)"

    def as_json(self, origin: float) -> list[dict]:
        return [
            {"name": f.name, "at_s": round(f.start - origin, 2), "for_s": round(f.end - f.start, 2)}
            for f in self.faults
        ]
