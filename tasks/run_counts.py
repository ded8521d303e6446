"""How many runs a schedule has in a span of time, and its first and last, without walking
every run: a minute cron paused for a year is 525,600 runs, counted in a few thousand steps.

Intervals are arithmetic. A cron expression is counted one local day at a time: a day whose
UTC offset does not change holds exactly (matching hours x matching minutes) runs when its
date matches, and only the span's edge days and the days of a UTC-offset change are walked
run by run with Schedule.next_after, so the daylight-saving rules stay in tasks/timing.py.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple

from tasks import schedule
from tasks.timing import ONE_MICROSECOND, Schedule

ONE_DAY = timedelta(days=1)
ONE_SECOND = timedelta(seconds=1)
HALF_DAY = timedelta(hours=12)


class RunSpan(NamedTuple):
    first: datetime
    last: datetime
    count: int


def runs_in(plan: Schedule, start: datetime, end: datetime) -> RunSpan | None:
    """The runs of `plan` in [start, end) (inside its window), or None when there is none."""
    if plan.ends_at is not None:
        end = min(end, plan.ends_at)
    first = plan.next_after(start - ONE_MICROSECOND)
    if first is None or first >= end:
        return None
    if plan.interval_seconds:
        return _interval_span(plan, first, end)
    return _cron_span(plan, first, end)


def _interval_span(plan: Schedule, first: datetime, end: datetime) -> RunSpan:
    step = timedelta(seconds=plan.interval_seconds)
    first_k = (first - plan.anchor) // step
    last_k = (end - ONE_MICROSECOND - plan.anchor) // step
    return RunSpan(first, plan.anchor + last_k * step, last_k - first_k + 1)


def _cron_span(plan: Schedule, first: datetime, end: datetime) -> RunSpan:
    zone = schedule.get_zone(plan.timezone)
    spec = schedule.parse_cron(plan.cron)
    count, last = 0, first
    day = first.astimezone(zone).date()
    start = first
    while start < end:
        day_start, day_end = _midnight(day, zone), _midnight(day + ONE_DAY, zone)
        stop = min(max(day_end, start), end)
        whole = start == day_start and stop == day_end
        if whole and _steady(day_start, day_end, zone):
            runs = _runs_of_steady_day(spec, day)
            if runs:
                count += runs
                last = _wall(day, spec.hours[-1], spec.minutes[-1], zone)
        else:
            for run in plan.runs_between(start, stop):
                count, last = count + 1, run
        start, day = stop, day + ONE_DAY
    return RunSpan(first, last, count)


def _midnight(day: date, zone) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def _steady(day_start: datetime, day_end: datetime, zone) -> bool:
    """No UTC-offset change inside the day nor at its start: 24 hours long, one offset just
    before it, at both ends and at noon (a change at midnight, as Pacific/Apia skipping a
    whole day, puts a gap's run at the day's start)."""
    if day_end - day_start != ONE_DAY:
        return False
    moments = (day_start - ONE_SECOND, day_start, day_start + HALF_DAY, day_end)
    offsets = {moment.astimezone(zone).utcoffset() for moment in moments}
    return len(offsets) == 1


def _runs_of_steady_day(spec: schedule.CronSpec, day: date) -> int:
    moment = datetime(day.year, day.month, day.day)
    if day.month not in spec.months or not spec.day_matches(moment):
        return 0
    return len(spec.hours) * len(spec.minutes)


def _wall(day: date, hour: int, minute: int, zone) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone).astimezone(UTC)
