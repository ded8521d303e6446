"""A task's schedule as one object: a cron expression in a zone or a fixed interval in UTC,
inside an optional window [starts_at, ends_at). Every reader of "when does this task run"
(the API's next_run_at, the tick's misfire step, the ledger's counts, backfill, the
preview) asks here, so the rules of the two kinds and of the window live in one place.

Interval runs fall at anchor + k * interval (k >= 0): the anchor is starts_at, else the
task's creation instant rounded up to the whole second. Cron runs follow tasks/schedule.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from tasks import schedule

ONE_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True)
class Schedule:
    cron: str | None  # resolved: no H left
    timezone: str
    interval_seconds: int | None
    anchor: datetime | None  # interval schedules: where the grid of runs starts
    starts_at: datetime | None = None
    ends_at: datetime | None = None

    def next_after(self, after: datetime) -> datetime | None:
        """The first run strictly after `after`, inside the window; None when there is none."""
        if self.starts_at is not None and after < self.starts_at:
            after = self.starts_at - ONE_MICROSECOND  # the start itself may be a run
        try:
            found = self._next_unbounded(after)
        except (OverflowError, ValueError):  # past year 9999: no run can be written down
            return None
        if found is None or (self.ends_at is not None and found >= self.ends_at):
            return None
        return found

    def _next_unbounded(self, after: datetime) -> datetime | None:
        if self.interval_seconds:
            step = timedelta(seconds=self.interval_seconds)
            if after < self.anchor:
                return self.anchor
            return self.anchor + ((after - self.anchor) // step + 1) * step
        return schedule.next_run_after(self.cron, self.timezone, after)

    def runs_between(self, start: datetime, end: datetime) -> Iterator[datetime]:
        """Every run in [start, end), oldest first."""
        run = self.next_after(start - ONE_MICROSECOND)
        while run is not None and run < end:
            yield run
            run = self.next_after(run)


def ceil_second(moment: datetime) -> datetime:
    if moment.microsecond == 0:
        return moment
    return moment.replace(microsecond=0) + timedelta(seconds=1)


def schedule_of(task) -> Schedule:
    """The schedule of a Task (cron or interval; a one-off task has none)."""
    cron = None
    if task.cron:
        cron = schedule.resolve_hash_cached(task.cron, str(task.id))
    anchor = None
    if task.interval_seconds:
        anchor = task.starts_at or ceil_second(task.created_at)
    return Schedule(
        cron, task.timezone, task.interval_seconds, anchor, task.starts_at, task.ends_at
    )
