"""A one-line progress bar on stderr (a few lines of our own instead of a dependency)."""

from __future__ import annotations

import sys
import time

WIDTH = 30


class Progress:
    def __init__(self, label: str, total: int, *, enabled: bool = True) -> None:
        self.label, self.total, self.enabled = label, max(total, 1), enabled
        self.started = time.monotonic()

    def show(self, done: int, note: str = "") -> None:
        if not self.enabled:
            return
        share = min(1.0, done / self.total)
        bar = "#" * int(share * WIDTH) + "-" * (WIDTH - int(share * WIDTH))
        elapsed = time.monotonic() - self.started
        counts = f"{done:,}/{self.total:,}"
        sys.stderr.write(
            f"\r{self.label[:24]:24s} [{bar}] {counts} {elapsed:5.0f}s {note[:30]:30s}"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
