"""A store that could not connect is not connected again on every request.

Connecting to an unreachable Cassandra takes up to its connect timeout (seconds); retried by
every read, that is seconds of a thread each time. After a failure the next attempt waits,
1 s at first, doubled on each failure up to `longest`; meanwhile callers fail at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from history.records import HistoryUnavailable


class ConnectBackoff:
    def __init__(
        self,
        *,
        first: float = 1.0,
        longest: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._first, self._longest, self._clock = first, longest, clock
        self._delay = 0.0
        self._not_before = 0.0
        self._last_error = ""

    def check(self) -> None:
        """Raise at once while the last failure's backoff lasts."""
        left = self._not_before - self._clock()
        if left > 0:
            raise HistoryUnavailable(
                f"{self._last_error} (not tried again for {left:.1f} s)", retry_after=left
            )

    def failed(self, error: HistoryUnavailable) -> None:
        self._delay = min(self._longest, self._delay * 2 or self._first)
        self._not_before = self._clock() + self._delay
        self._last_error = str(error)

    def succeeded(self) -> None:
        self._delay = self._not_before = 0.0
