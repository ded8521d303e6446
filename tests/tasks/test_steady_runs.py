"""The next run found by subtraction on a day without a change of offset is the run the
search through the zone's rules finds, on every kind of day: quiet ones, a change's eve, a
gap, a repeated hour, a whole skipped day, and in zones that never change."""

import random
from datetime import UTC, datetime, timedelta

import pytest

from tasks.schedule import _steady_run, get_zone, next_run_after, parse_cron, searched_run
from tasks.steady_offsets import day_number, steady_offset

EXPRESSIONS = [
    "* * * * *",
    "*/7 * * * *",
    "30 2 * * *",
    "15,45 1,2 * * *",
    "0 */2 * * *",
    "5 1-5/2 * * *",
    "0 0 * * MON",
    "0 12 1 * *",
    "59 23 * * *",
]
CHANGES = [
    ("Pacific/Kwajalein", datetime(1969, 9, 30, tzinfo=UTC)),  # back 23 hours
    ("Europe/Madrid", datetime(2026, 3, 29, tzinfo=UTC)),  # spring forward at 02:00
    ("Europe/Madrid", datetime(2026, 10, 25, tzinfo=UTC)),  # fall back at 03:00
    ("America/New_York", datetime(2026, 11, 1, tzinfo=UTC)),
    ("Australia/Lord_Howe", datetime(2026, 4, 5, tzinfo=UTC)),  # a half-hour change
    ("Pacific/Apia", datetime(2011, 12, 30, tzinfo=UTC)),  # a whole day skipped
    ("Antarctica/Troll", datetime(2026, 3, 29, tzinfo=UTC)),  # a two-hour change
    ("Asia/Tokyo", datetime(2026, 3, 29, tzinfo=UTC)),  # never changes
]


def both(expression: str, zone: str, after: datetime) -> tuple:
    next_run_after.cache_clear()
    return next_run_after(expression, zone, after), searched_run(
        parse_cron(expression), zone, after
    )


@pytest.mark.parametrize(("zone", "day"), CHANGES)
@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_every_start_around_a_change_finds_the_searched_run(zone, day, expression):
    for minute in range(-3 * 24 * 60, 3 * 24 * 60, 13):
        after = day + timedelta(minutes=minute, seconds=minute % 60)
        fast, searched = both(expression, zone, after)
        assert fast == searched, (expression, zone, after)


def test_random_zones_and_instants_find_the_searched_run():
    rng = random.Random(23)
    zones = sorted(name for name in __import__("zoneinfo").available_timezones() if "/" in name)
    for _ in range(3000):
        zone = rng.choice(zones)
        expression = rng.choice(EXPRESSIONS)
        after = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(366 * 86400))
        fast, searched = both(expression, zone, after)
        assert fast == searched, (expression, zone, after)


def test_a_day_of_change_is_not_steady_and_its_neighbours_are():
    madrid = get_zone("Europe/Madrid")
    change = day_number(datetime(2026, 3, 29, tzinfo=UTC))
    assert steady_offset(madrid, change) is None
    assert steady_offset(madrid, change - 1) is None  # the change is within hours of its end
    assert steady_offset(madrid, change + 1) is None  # within a day before it
    assert steady_offset(madrid, change - 2) == timedelta(hours=1)
    assert steady_offset(madrid, change + 2) == timedelta(hours=2)


def test_wall_times_repeated_by_a_change_back_of_most_of_a_day_run_at_their_first_pass():
    # Kwajalein went from +11 to -12 on 1969-09-30: the wall times of the next 23 hours
    # came twice, and a fixed-hour run takes the first of them.
    after = datetime(1969, 10, 1, tzinfo=UTC)
    fast, searched = both("30 13 * * *", "Pacific/Kwajalein", after)
    assert fast == searched == datetime(1969, 10, 2, 1, 30, tzinfo=UTC)


def test_a_zone_that_never_changes_is_steady_every_day():
    tokyo = get_zone("Asia/Tokyo")
    first = day_number(datetime(2026, 1, 1, tzinfo=UTC))
    assert {steady_offset(tokyo, day) for day in range(first, first + 366)} == {timedelta(hours=9)}


def test_a_quiet_day_is_answered_by_subtraction():
    """The equivalence tests above would pass with no shortcut at all: here it is taken."""
    after = datetime(2026, 6, 10, 8, 0, 0, 250000, tzinfo=UTC)
    found = _steady_run(parse_cron("30 2 * * *"), get_zone("Europe/Madrid"), after)
    assert found == datetime(2026, 6, 11, 0, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("zone", "after"),
    [
        ("America/New_York", datetime(1880, 5, 3, 7, 12, 9, 123456, tzinfo=UTC)),  # -4:56:02
        ("Europe/Amsterdam", datetime(1925, 2, 1, 11, 0, 59, 999999, tzinfo=UTC)),  # +0:19:32
        ("Europe/Madrid", datetime(2091, 7, 1, 23, 59, 59, 500000, tzinfo=UTC)),  # by rule
    ],
)
def test_offsets_with_seconds_microseconds_and_far_years_find_the_searched_run(zone, after):
    for expression in EXPRESSIONS:
        fast, searched = both(expression, zone, after)
        assert fast == searched, (expression, zone, after)
