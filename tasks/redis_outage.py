"""What the rate limiter knows of Redis: answering, or failed a moment ago.

While Redis is out each API process keeps its own bucket (a limit per process beats no limit,
and a 500 for every creation). After a failure Redis is left alone for RETRY_AFTER_SECONDS,
so that a Redis that hangs costs one connect timeout per process now and then, not one per
request; the outage is logged once when it starts and once when it ends.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger("tasks.rate_limit")
RETRY_AFTER_SECONDS = 5.0


class RedisOutage:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._retry_at = 0.0

    def skipping(self) -> bool:
        """Whether Redis is not to be asked now."""
        return time.monotonic() < self._retry_at

    def failed(self, exc: Exception) -> None:
        with self._lock:
            self._retry_at = time.monotonic() + RETRY_AFTER_SECONDS
            if self._down_since is not None:
                return
            self._down_since = time.monotonic()
        logger.error(
            "Redis (CACHE_URL) did not answer (%s): rates are limited per process until it does",
            exc,
        )

    def answered(self) -> None:
        if self._down_since is None:
            return
        with self._lock:
            down_for, self._down_since = time.monotonic() - (self._down_since or 0), None
        logger.warning("Redis answers again after %.0f s: rate limits are shared", down_for)


redis_outage = RedisOutage()
