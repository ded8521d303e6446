"""The executor's heartbeat, written by a thread of its own five times within
EXECUTOR_DEAD_AFTER_SECONDS whatever its rounds and calls are doing: the reconciler hands
back the jobs of an executor whose beat is older than that (jobs/queue/dead_holders.py), so
a live executor's beat must never wait for a long round.

The executor also knows when it could be taken for dead: it starts no call once its last
beat is about to go stale, nor one of a job it claimed before such a lapse ended (the
reconciler may have handed that job to another executor meanwhile)."""

from __future__ import annotations

import logging
import threading
import time

from django.db import connection

from execution.heartbeats import write_beat

logger = logging.getLogger("execution.executor")


class Liveness:
    """When this executor may still start calls, from the beats that reached the database."""

    def __init__(self, dead_after: float) -> None:
        # Calls stop this long before the reconciler may act: a call decided just before
        # the limit is sent a little after it.
        self.fresh_for = dead_after * 0.8
        self._fresh_until = 0.0  # monotonic; nothing may start before the first beat
        self._lapse_ended = 0.0
        self._lock = threading.Lock()

    def beaten(self, started: float, ended: float) -> None:
        """A beat sent at `started` was committed by `ended` (monotonic)."""
        with self._lock:
            if started >= self._fresh_until:
                # A lapse (or the first beat): any claim before the database has this
                # beat may have been handed back.
                self._lapse_ended = ended
            self._fresh_until = started + self.fresh_for

    def may_fire(self, claimed: float, now: float | None = None) -> bool:
        """Whether a job claimed at `claimed` (monotonic, before its claim) may start now."""
        now = time.monotonic() if now is None else now
        with self._lock:
            return now < self._fresh_until and claimed >= self._lapse_ended


class BeatThread:
    """Beats every `every` seconds on a database connection of its own."""

    def __init__(self, name: str, instance_id: str, liveness: Liveness, every: float) -> None:
        self.name, self.instance_id = name, instance_id
        self.liveness, self.every = liveness, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"{instance_id}-beat", daemon=True)

    def beat_now(self) -> bool:
        """One beat in the calling thread; whether it reached the database."""
        started = time.monotonic()
        try:
            write_beat(self.name, self.instance_id)
        except Exception as exc:  # noqa: BLE001 - any failure is a missed beat, retried
            logger.warning("heartbeat not written (%s)", exc)
            connection.close()
            return False
        self.liveness.beaten(started, time.monotonic())
        return True

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every):
                self.beat_now()
        finally:
            connection.close()
