"""Counting a schedule's runs in a span (tasks/run_counts.py): the fast path agrees with
walking every run, across DST changes, a zone that skipped a day, windows and intervals, and
a minute cron over a year is counted without walking it."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from tasks.run_counts import runs_in
from tasks.timing import Schedule


def cron(expression: str, zone: str = "UTC", **window) -> Schedule:
    return Schedule(expression, zone, None, None, **window)


def walked(plan: Schedule, start: datetime, end: datetime):
    runs = list(plan.runs_between(start, end))
    return (runs[0], runs[-1], len(runs)) if runs else None


def at(*parts) -> datetime:
    return datetime(*parts, tzinfo=UTC)


CASES = [
    ("* * * * *", "Europe/Madrid", at(2027, 3, 25, 13, 7), at(2027, 4, 2, 1, 1)),
    ("*/15 * * * *", "America/New_York", at(2027, 11, 1, 3, 3), at(2027, 11, 12)),
    ("30 2 * * *", "Europe/Madrid", at(2027, 3, 1), at(2027, 4, 30)),
    ("15,45 1-3 * * 1-5", "Australia/Lord_Howe", at(2027, 3, 20), at(2027, 4, 20)),
    ("0 * * * *", "Australia/Sydney", at(2027, 9, 25), at(2027, 10, 10)),
    ("0 0 * * *", "Pacific/Apia", at(2011, 12, 25), at(2012, 1, 5)),
    ("0 1-3/2 * * *", "Pacific/Apia", at(2011, 12, 27), at(2012, 1, 3)),  # the day it skipped
    ("0 12 1,15 * 0", "America/Santiago", at(2027, 1, 1), at(2027, 12, 31)),
    ("59 23 29 2 *", "UTC", at(2027, 1, 1), at(2033, 1, 1)),
]


@pytest.mark.parametrize(("expression", "zone", "start", "end"), CASES)
def test_the_count_agrees_with_walking_every_run(expression, zone, start, end):
    plan = cron(expression, zone)
    span = runs_in(plan, start, end)
    assert (tuple(span) if span else None) == walked(plan, start, end)


def test_the_window_bounds_the_count():
    plan = cron(
        "0 * * * *", "Europe/Madrid", starts_at=at(2027, 3, 2, 5, 30), ends_at=at(2027, 3, 9)
    )
    span = runs_in(plan, at(2027, 3, 1), at(2027, 4, 1))
    assert span == (at(2027, 3, 2, 6), at(2027, 3, 8, 23), 162)


def test_a_span_without_a_run_counts_none():
    assert runs_in(cron("0 3 * * *"), at(2027, 3, 2, 4), at(2027, 3, 3, 3)) is None


def test_an_interval_is_counted_by_arithmetic():
    anchor = at(2027, 1, 1, 0, 0, 7)
    plan = Schedule(None, "UTC", 90, anchor, ends_at=at(2027, 1, 2))
    span = runs_in(plan, at(2027, 1, 1, 0, 1), at(2028, 1, 1))
    assert span == (anchor + timedelta(seconds=90), anchor + timedelta(seconds=90 * 959), 959)


def test_a_minute_cron_paused_for_a_year_is_counted_quickly():
    plan = cron("* * * * *", "Europe/Madrid")
    paused_for_a_day = runs_in(plan, at(2027, 3, 27, 12), at(2027, 3, 28, 12))
    assert paused_for_a_day == walked(plan, at(2027, 3, 27, 12), at(2027, 3, 28, 12))
    plan = cron("* * * * *")
    started = time.perf_counter()
    span = runs_in(plan, at(2027, 1, 1, 0, 0), at(2028, 1, 1, 0, 0))
    assert span.count == 525_600
    assert time.perf_counter() - started < 2.0
