"""The one loop every long-running process is built on.

A process does one unit of work per turn and says how long to wait before the next one
(0 when it found work, so a backlog drains without sleeping). The wait can be cut short by
`stop()` or `wake()`. Signal handlers only record the signal; the loop does the stopping.
A lost database connection is waited out with backoff; any other error surfaces.
"""

from __future__ import annotations

import logging
import os
import random
import signal
import threading
import time
from functools import cached_property

from django.db import close_old_connections, connection, reset_queries
from django.db.utils import InterfaceError, OperationalError

from execution.heartbeats import beat
from execution.identity import default_worker_id
from execution.metrics import mark_healthy
from execution.signal_relay import SignalRelay

TRANSIENT_DATABASE_ERRORS = (OperationalError, InterfaceError)


class Backoff:
    """Exponential backoff with jitter, reset after a success.

    The cap is short on purpose: a retry is one connection attempt, cheap for the
    database, while every second between the database's return and the next attempt is a
    second every due job waits (with a 30 s cap, a 30 s cut kept the executors away for up
    to 20 s more; the campaign's scenario 6).
    """

    def __init__(self, *, base: float = 0.5, cap: float = 5.0) -> None:
        self.base, self.cap, self.failures = base, cap, 0

    def next_delay(self) -> float:
        self.failures += 1
        delay = min(self.cap, self.base * 2 ** (self.failures - 1))
        return delay * (0.5 + random.random() / 2)

    def reset(self) -> None:
        self.failures = 0


class LoopProcess:
    """Base of the scheduler, reconciler and archiver processes."""

    name = "process"
    # Errors to wait out with backoff; anything else surfaces.
    transient_errors: tuple[type[BaseException], ...] = TRANSIENT_DATABASE_ERRORS
    # At most how often a turn checks its database connection (Django then pings it before
    # the turn's first statement). 0: every turn, so a connection the server ended between
    # two turns is replaced in silence.
    connection_check_seconds = 0.0

    def __init__(self, *, poll_interval: float) -> None:
        self.poll_interval = poll_interval
        self.logger = logging.getLogger(f"execution.{self.name}")
        self._stopping = threading.Event()
        self._wakeup = threading.Event()
        self._backoff = Backoff()
        self.turns = 0
        self._checked_at: float | None = None  # monotonic; None: check at the next turn
        # Since when (monotonic) every turn has reached the database; None until the first
        # good turn, and again after a failed one.
        self.available_since: float | None = None

    # --- to override -------------------------------------------------------------------

    def run_once(self) -> float:
        """Do one unit of work; return the seconds to wait before the next (0: go on)."""
        raise NotImplementedError

    def on_start(self) -> None:
        """Called once before the first turn."""

    def on_stop(self) -> None:
        """Called once after the last turn, also after an error."""

    def heartbeat(self) -> None:
        """After each good turn: this process's heartbeat row (at most every few seconds)."""
        beat(self.name, self.instance_id)

    # --- the loop -------------------------------------------------------------------------

    def run(self, *, once: bool = False) -> None:
        self.on_start()
        try:
            while not self._stopping.is_set():
                delay = self._turn()
                if once:
                    break
                self._wait(delay)
        finally:
            self.on_stop()
            connection.close()

    def _check_connection(self) -> None:
        now = time.monotonic()
        if self._checked_at is None or now - self._checked_at >= self.connection_check_seconds:
            close_old_connections()
            self._checked_at = now

    def _turn(self) -> float:
        self._check_connection()
        reset_queries()
        try:
            delay = self.run_once()
            self.heartbeat()
        except self.transient_errors as exc:
            delay = self._backoff.next_delay()
            self.logger.warning("unavailable (%s); retrying in %.1fs", exc, delay)
            connection.close()
            self.available_since = None
            self._checked_at = None
            return delay
        if self.available_since is None:
            self.available_since = time.monotonic()
        self._backoff.reset()
        self.turns += 1
        mark_healthy(self.name)
        return delay

    def _wait(self, delay: float) -> None:
        if delay <= 0:
            return
        self._wakeup.wait(delay)
        self._wakeup.clear()

    def stop(self) -> None:
        self._stopping.set()
        self._wakeup.set()

    def wake(self) -> None:
        self._wakeup.set()

    @cached_property
    def instance_id(self) -> str:
        """This process among others of its kind (host and pid), for its heartbeat row."""
        return default_worker_id(self.name)

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()


def install_stop_signals(*processes: LoopProcess) -> None:
    """SIGTERM and SIGINT ask every process to stop after its current turn; a second one
    (an impatient Ctrl-C, say while the database is down) ends the process at once.

    The stop itself runs on a relay thread (execution/signal_relay.py): setting the loop's
    Events in the handler could wait forever on a lock the interrupted main thread holds.
    """

    def stop_all(signum: int) -> None:
        for process in processes:
            process.stop()

    relay = SignalRelay(stop_all)

    def request_stop(signum, frame) -> None:
        # `stopping` reads a flag and takes no lock; only the main thread may reset a handler.
        if all(process.stopping for process in processes):
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        relay.send(signum)

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
