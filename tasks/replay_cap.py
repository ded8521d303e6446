"""Where a resumed `run_all` task starts replaying the runs it missed while its tenant was
stopped: at the oldest missed run when at most the cap were missed, else at the cap-th
latest before now, so a tenant stopped for a week does not send a week of runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from croniter import croniter

from tasks import schedule
from tasks.timing import Schedule


def replay_start(timing: Schedule, due: datetime, now: datetime, cap: int) -> datetime:
    """The next_run_at from which the tick replays (one run per tick, as run_all does).
    `due` is the task's next_run_at, the oldest missed run (on the schedule's grid)."""
    if due >= now:
        return due
    if timing.interval_seconds:
        return _interval_replay_start(timing.interval_seconds, due, now, cap)
    return _cron_replay_start(timing.cron, timing.timezone, due, now, cap)


def _interval_replay_start(interval: int, due: datetime, now: datetime, cap: int) -> datetime:
    step = timedelta(seconds=interval)
    missed = (now - due) // step + 1  # due, due + step, ... up to now
    return due + max(missed - cap, 0) * step


def _cron_replay_start(cron: str, timezone: str, due: datetime, now: datetime, cap: int):
    if not _more_missed_than(cron, timezone, due, now, cap):
        return due
    # Found stepping back from now in wall-clock time, then moved onto a run exactly as the
    # tick finds runs (a DST change near it can move the start by one run, never more).
    back = croniter(cron, now.astimezone(schedule.get_zone(timezone)))
    for _ in range(cap):
        earlier = back.get_prev(datetime)
    start = schedule.next_run_after(cron, timezone, earlier.astimezone(UTC) - timedelta(seconds=1))
    return max(start or due, due)


def _more_missed_than(cron: str, timezone: str, due: datetime, now: datetime, cap: int) -> bool:
    run, missed = due, 0
    while run is not None and run <= now:
        missed += 1
        if missed > cap:
            return True
        run = schedule.next_run_after(cron, timezone, run)
    return False
