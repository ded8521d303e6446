"""The daylight-saving rules of tasks/schedule.py over a table of zones and changes.

Each case is checked against a brute-force reading of the rules, minute by minute in UTC:
at every minute the local clock reads a matching wall time, there is a run, except the
second pass of a repeated hour for a fixed hour; the minute a spring-forward gap ends runs
if any of the gap's wall times (or its own) matches.
"""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from tasks.schedule import (
    collapsed_into,
    gap_wall_times,
    next_run_after,
    parse_cron,
    resolve_hash,
)

ONE_MINUTE = timedelta(minutes=1)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@dataclass(frozen=True)
class Change:
    zone: str
    at: datetime  # the UTC instant of the change
    kind: str  # "gap" (spring forward) or "repeat" (fall back)
    first_wall: datetime  # the first wall time of the gap or of the repeated span
    last_wall: datetime  # its last wall minute

    def __str__(self) -> str:
        return f"{self.zone}-{self.kind}-{self.at:%Y%m%d}"


def change(zone: str, at: str, kind: str, first_wall: str, minutes: int) -> Change:
    """A change from ISO text: its UTC instant, the first wall time it skips or repeats
    and how many wall minutes."""
    first = datetime.fromisoformat(first_wall)
    last = first + (minutes - 1) * ONE_MINUTE
    return Change(zone, datetime.fromisoformat(at).replace(tzinfo=UTC), kind, first, last)


CHANGES = [
    change("Europe/Madrid", "2027-03-28T01:00", "gap", "2027-03-28T02:00", 60),
    change("Europe/Madrid", "2027-10-31T01:00", "repeat", "2027-10-31T02:00", 60),
    change("America/New_York", "2027-03-14T07:00", "gap", "2027-03-14T02:00", 60),
    change("America/New_York", "2027-11-07T06:00", "repeat", "2027-11-07T01:00", 60),
    # southern hemisphere: summer time ends in April, starts in October
    change("Australia/Sydney", "2027-04-03T16:00", "repeat", "2027-04-04T02:00", 60),
    change("Australia/Sydney", "2027-10-02T16:00", "gap", "2027-10-03T02:00", 60),
    # Santiago changes at midnight: the gap and the repeated hour touch the day boundary
    change("America/Santiago", "2027-04-04T03:00", "repeat", "2027-04-03T23:00", 60),
    change("America/Santiago", "2027-09-05T04:00", "gap", "2027-09-05T00:00", 60),
    # a 30-minute shift
    change("Australia/Lord_Howe", "2027-04-03T15:00", "repeat", "2027-04-04T01:30", 30),
    change("Australia/Lord_Howe", "2027-10-02T15:30", "gap", "2027-10-03T02:00", 30),
    # a whole day skipped: 2011-12-30 never happened in Samoa
    change("Pacific/Apia", "2011-12-30T10:00", "gap", "2011-12-30T00:00", 24 * 60),
]
GAPS = [change for change in CHANGES if change.kind == "gap"]
REPEATS = [change for change in CHANGES if change.kind == "repeat"]

# (expression builder, whether its hour runs in elapsed time)
EXPRESSIONS = [
    (lambda w: "* * * * *", True),
    (lambda w: "*/15 * * * *", True),
    (lambda w: "*/7 * * * *", True),
    (lambda w: "0 * * * *", True),
    (lambda w: "@hourly", True),
    (lambda w: f"*/10 {w.hour}-23/2 * * *", True),
    (lambda w: f"{w.minute} {w.hour} * * *", False),
    (lambda w: f"{(w.minute + 15) % 60},{(w.minute + 45) % 60} {w.hour} * * *", False),
    (lambda w: f"{w.minute}-{w.minute + 20} {w.hour} * * *", False),
    (lambda w: f"*/5 {w.hour} * * *", False),
    (lambda w: f"59 {w.hour},{(w.hour + 1) % 24} * * *", False),
    (lambda w: "@daily", False),
]


def matches(spec, moment: datetime) -> bool:
    return (
        moment.minute in spec.minutes
        and moment.hour in spec.hours
        and moment.month in spec.months
        and spec.day_matches(moment)
    )


def oracle(expression: str, elapsed: bool, zone_name: str, start: datetime, end: datetime):
    """Every run in [start, end) by the rules, read minute by minute."""
    spec, zone, found = parse_cron(expression), ZoneInfo(zone_name), []
    moment = start
    while moment < end:
        local = moment.astimezone(zone)
        before = (moment - timedelta(seconds=1)).astimezone(zone).utcoffset()
        naive = moment.replace(tzinfo=None)
        if local.utcoffset() > before:  # a gap ends: its wall times and its own run now
            walls, cursor = [], naive + before
            while cursor <= naive + local.utcoffset():
                walls.append(cursor)
                cursor += ONE_MINUTE
            if any(matches(spec, w) for w in walls):
                found.append(moment)
        elif matches(spec, local.replace(tzinfo=None)) and (elapsed or not local.fold):
            found.append(moment)
        moment += ONE_MINUTE
    return found


def runs_between(expression: str, zone: str, start: datetime, end: datetime) -> list[datetime]:
    result, moment = [], next_run_after(expression, zone, start - ONE_MINUTE)
    while moment is not None and moment < end:
        result.append(moment)
        moment = next_run_after(expression, zone, moment)
    return result


def window(change: Change) -> tuple[datetime, datetime]:
    span = timedelta(hours=27) if change.zone == "Pacific/Apia" else timedelta(hours=4)
    return change.at - span, change.at + span


@pytest.mark.parametrize("change", CHANGES, ids=str)
@pytest.mark.parametrize(("build", "elapsed"), EXPRESSIONS)
def test_runs_around_each_change_follow_the_rules(change, build, elapsed):
    expression = build(change.first_wall)
    start, end = window(change)
    expected = oracle(expression, elapsed, change.zone, start, end)
    assert runs_between(expression, change.zone, start, end) == expected


@pytest.mark.parametrize("change", GAPS, ids=str)
@pytest.mark.parametrize("edge", ["first_wall", "last_wall"])
def test_first_and_last_minute_of_a_gap_run_once_at_its_end(change, edge):
    moment = getattr(change, edge)
    expression = f"{moment.minute} {moment.hour} {moment.day} {moment.month} *"
    before = change.at - timedelta(days=2)
    assert next_run_after(expression, change.zone, before) == change.at
    assert next_run_after(expression, change.zone, change.at).year > change.at.year


@pytest.mark.parametrize("change", REPEATS, ids=str)
@pytest.mark.parametrize("edge", ["first_wall", "last_wall"])
def test_first_and_last_minute_of_a_repeated_hour_run_once_for_a_fixed_hour(change, edge):
    moment = getattr(change, edge)
    expression = f"{moment.minute} {moment.hour} * * *"
    start, end = window(change)
    (run,) = runs_between(expression, change.zone, start, end)
    assert run < change.at  # the first pass


@pytest.mark.parametrize("change", REPEATS, ids=str)
def test_every_minute_runs_through_both_passes_of_a_repeated_hour(change):
    shift = change.last_wall - change.first_wall + ONE_MINUTE
    start, end = change.at - shift - ONE_MINUTE, change.at + shift + ONE_MINUTE
    minutes = int((end - start) / ONE_MINUTE)
    assert runs_between("* * * * *", change.zone, start, end) == [
        start + n * ONE_MINUTE for n in range(minutes)
    ]


@pytest.mark.parametrize("change", GAPS, ids=str)
def test_every_minute_is_continuous_across_a_gap(change):
    start, end = change.at - 3 * ONE_MINUTE, change.at + 3 * ONE_MINUTE
    assert runs_between("* * * * *", change.zone, start, end) == [
        start + n * ONE_MINUTE for n in range(6)
    ]


@pytest.mark.parametrize("change", GAPS, ids=str)
@pytest.mark.parametrize("step", [1, 10, 15])
def test_collapsed_into_counts_the_gap_wall_times_and_the_end_own(change, step):
    gap_minutes = int((change.last_wall - change.first_wall) / ONE_MINUTE) + 1
    walls = [change.first_wall + n * ONE_MINUTE for n in range(gap_minutes + 1)]
    expected = sum(1 for w in walls if w.minute % step == 0)
    expression = f"*/{step} * * * *"
    assert len(gap_wall_times(expression, change.zone, change.at)) == expected
    # The ledger counts the collapse for fixed hours only: in elapsed time a wildcard hour
    # loses nothing at a gap.
    assert collapsed_into(expression, change.zone, change.at) == 0
    hours = ",".join(str(hour) for hour in sorted({wall.hour for wall in walls}))
    assert collapsed_into(f"*/{step} {hours} * * *", change.zone, change.at) == expected


def test_a_whole_skipped_day_collapses_into_one_run():
    # Apia went from 2011-12-29 23:59 (-10) to 2011-12-31 00:00 (+14).
    runs = runs_between("0 12 * * *", "Pacific/Apia", utc(2011, 12, 29), utc(2011, 12, 31))
    assert runs == [utc(2011, 12, 29, 22), utc(2011, 12, 30, 10), utc(2011, 12, 30, 22)]
    every_hour = ",".join(str(hour) for hour in range(24))
    assert collapsed_into(f"* {every_hour} * * *", "Pacific/Apia", utc(2011, 12, 30, 10)) == 1441


def test_an_instant_that_ends_no_gap_collapses_nothing():
    assert collapsed_into("* * * * *", "Europe/Madrid", utc(2027, 3, 28, 1, 1)) == 0
    assert collapsed_into("* * * * *", "Europe/Madrid", utc(2027, 10, 31, 1)) == 0
    assert collapsed_into("* * * * *", "UTC", utc(2027, 3, 28, 1)) == 0


SEEDS = [f"task-{n}" for n in range(20)]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("expression", "elapsed"),
    [("H * * * *", True), ("H/15 * * * *", True), ("H H/2 * * *", True), ("H H * * *", False),
     ("H(0-29)/10 1 * * *", False), ("*/10 H(0-3)/2 * * *", True)],
)  # fmt: skip
@pytest.mark.parametrize("change", [CHANGES[1], CHANGES[3], CHANGES[8]], ids=str)
def test_h_forms_follow_the_rule_of_the_hour_they_resolve_to(change, expression, elapsed, seed):
    resolved = resolve_hash(expression, seed)
    start, end = window(change)
    expected = oracle(resolved, elapsed, change.zone, start, end)
    assert runs_between(resolved, change.zone, start, end) == expected
