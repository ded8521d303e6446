"""A dependency's check run in a thread of its own, waited for until a deadline.

The request that asks does not hang with a hung dependency: it stops waiting at the deadline
and reports the dependency unavailable. A check still running from an earlier request is
waited for again rather than started a second time, so a hung dependency holds one thread
of the process, not one per probe.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

from django.db import DatabaseError, connections

from history.records import HistoryUnavailable

logger = logging.getLogger("scheduler_site.readiness")
UNAVAILABLE_ERRORS = (DatabaseError, HistoryUnavailable)


class Probe:
    def __init__(self, name: str, check: Callable[[], None]) -> None:
        self.name = name
        self._check = check
        self._lock = threading.Lock()
        self._running: Future | None = None

    def start(self) -> Future:
        with self._lock:
            if self._running is None or self._running.done():
                self._running = Future()
                thread = threading.Thread(
                    target=self._run, args=(self._running,), name=f"probe-{self.name}", daemon=True
                )
                thread.start()
            return self._running

    def outcome(self, future: Future, deadline: float) -> str:
        try:
            future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            logger.warning("readiness: %s did not answer in time", self.name)
            return "unavailable"
        except UNAVAILABLE_ERRORS as exc:
            logger.warning("readiness: %s does not answer (%s)", self.name, exc)
            return "unavailable"
        return "ok"

    def _run(self, future: Future) -> None:
        try:
            self._check()
        except BaseException as exc:  # handed to the waiting request, which judges it
            future.set_exception(exc)
        else:
            future.set_result(None)
        finally:
            # This thread's database connections, opened for the check, end with it.
            connections.close_all()
