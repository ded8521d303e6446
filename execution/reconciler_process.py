"""The reconciler process: running jobs whose lease expired, or whose executor's heartbeat
went stale (jobs/queue/dead_holders.py), go back to pending (or dead),
the console's "retry all matching" is carried out, and the flows' rows no longer needed are
removed (flows/housekeeping.py), a batch of each per turn.

The dead executors' check does not wait for the turn's interval (5 s by default, longer
if set): between two full turns the reconciler looks for stale heartbeats at the pace the
executors beat (EXECUTOR_DEAD_AFTER_SECONDS / 5), so a killed executor's jobs go back
within about the limit plus a beat, as campaign scenario 3 measures with an interval of
1 s, whatever interval a deployment runs."""

import time
from datetime import UTC, datetime

from django.conf import settings
from django.db import connection

from execution.metrics import DEAD_HOLDERS_JOBS
from execution.runtime import LoopProcess
from flows.housekeeping import flow_housekeeping
from jobs.queue import reconcile_expired_leases
from jobs.queue.dead_holders import return_dead_holders_jobs
from jobs.retry_all import BATCH_SIZE, retry_all_step


class ReconcilerProcess(LoopProcess):
    name = "reconciler"

    def __init__(
        self, *, interval: float = 5.0, batch_size: int = 1000, retry_batch_size: int = BATCH_SIZE
    ) -> None:
        super().__init__(poll_interval=interval)
        self.batch_size = batch_size
        self.retry_batch_size = retry_batch_size
        self.last_count = 0
        self.dead_holders_returned = 0  # jobs of dead executors handed back, in all
        self._link = None  # the database connection of the last turn
        self._full_turn_at = 0.0  # monotonic: when the leases, retries and flows are due
        self._cleared_beats: set = set()  # stale beats found holding nothing

    def run_once(self) -> float:
        returned = self._dead_holders()
        now = time.monotonic()
        if now < self._full_turn_at:
            # Between two full turns: only the cheap look at the executors' heartbeats (at
            # once again while a dead one's jobs fill whole batches).
            if returned >= self.batch_size:
                return 0
            return min(self._full_turn_at - now, self.dead_check_seconds)
        delay = self._full_turn(returned)
        self._full_turn_at = now + delay
        return min(delay, self.dead_check_seconds)

    @property
    def dead_check_seconds(self) -> float:
        """How often the dead executors are looked for: as often as each one beats."""
        return settings.EXECUTOR_DEAD_AFTER_SECONDS / 5

    def _full_turn(self, returned: int) -> float:
        self.last_count = reconcile_expired_leases(batch_size=self.batch_size)
        retrying = retry_all_step(batch_size=self.retry_batch_size)
        # After the leases: a call whose lease just expired leaves its flow_calls row now.
        tidying = flow_housekeeping(batch_size=self.batch_size, now=datetime.now(UTC))
        self.logger.info("reconcile returned=%d", self.last_count)
        busy = self.last_count >= self.batch_size or retrying or tidying
        busy = busy or returned >= self.batch_size
        return 0 if busy else self.poll_interval

    def _dead_holders(self) -> int:
        """The jobs of executors taken for dead, before the leases (theirs would expire
        later); the count handed back."""
        dead_after = settings.EXECUTOR_DEAD_AFTER_SECONDS
        if self._link_renewed():
            # The database may have been away since the last turn (a restart between two
            # turns fails none of them): the executors' beats stopped meanwhile too.
            self.available_since = time.monotonic()
        since = self.available_since
        if since is None or time.monotonic() - since < dead_after:
            # Just started, or the database just came back: every executor's beat is old
            # then, live ones too, until their beats (a second apart) reach it again.
            return 0
        returned = return_dead_holders_jobs(
            dead_after=dead_after, batch_size=self.batch_size, cleared=self._cleared_beats
        )
        if returned.total:
            DEAD_HOLDERS_JOBS.labels("unfired").inc(returned.unfired)
            DEAD_HOLDERS_JOBS.labels("lost").inc(returned.lost)
            self.logger.warning(
                "executors silent for over %ds: handed back %d jobs of %d of them "
                "(%d not yet due, %d maybe called)",
                dead_after,
                returned.total,
                returned.holders,
                returned.unfired,
                returned.lost,
            )
        self.dead_holders_returned += returned.total
        return returned.total

    def _link_renewed(self) -> bool:
        """Whether this turn's connection is not the last turn's. A connection the server
        dropped is replaced in silence by the next turn's health check; one past its age
        (CONN_MAX_AGE) too, which only holds the hand-backs back once for the limit."""
        with connection.cursor():
            pass  # the health check, reconnecting if the old connection is gone
        link = connection.connection
        renewed = link is not self._link
        self._link = link
        return renewed
