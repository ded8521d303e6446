"""A circuit breaker: a history store that just failed is not asked again for a while.

A hung store holds the thread of every read for its whole timeout; a few readers then take
every thread of an API process. After one failure (a timeout is one) reads fail at once for
`open_seconds`; then a single read goes through as a trial: its success closes the breaker,
its failure opens it again. Reads refused meanwhile say when to try again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from history.records import HistoryUnavailable

T = TypeVar("T")


class Breaker:
    def __init__(self, open_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._open_seconds = open_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._open_until: float | None = None  # None: closed, every read goes through
        self._trial_running = False

    def call(self, read: Callable[[], T]) -> T:
        trial = self._admit()
        try:
            result = read()
        except HistoryUnavailable as exc:
            self._settle(ok=False, trial=trial)
            raise HistoryUnavailable(str(exc), retry_after=self._open_seconds) from exc
        except BaseException:
            self._settle(ok=None, trial=trial)
            raise
        self._settle(ok=True, trial=trial)
        return result

    def _admit(self) -> bool:
        """Whether this read is the trial; raises when reads are refused now."""
        with self._lock:
            if self._open_until is None:
                return False
            left = self._open_until - self._clock()
            if left > 0 or self._trial_running:
                raise HistoryUnavailable(
                    "the history store failed a moment ago; not asked again yet",
                    retry_after=max(left, 1.0),
                )
            self._trial_running = True
            return True

    def _settle(self, *, ok: bool | None, trial: bool) -> None:
        """ok None: the read failed for a reason of its own, which says nothing of the store."""
        with self._lock:
            if trial:
                self._trial_running = False
            if ok:
                self._open_until = None
            elif ok is False:
                self._open_until = self._clock() + self._open_seconds
