"""The next-run search's shortcut from a wall time to its instant (a guess at the search's
starting offset, checked by one conversion back) gives wall_to_utc's answer for every wall
minute of a daylight-saving change, whichever offset of the day it starts from: a gap's
times go to the gap's end, a repeated hour's to its first pass."""

from datetime import UTC, datetime, timedelta

import pytest

from tasks.schedule import _wall_instant, get_zone, utc_from_naive, wall_to_utc

CHANGES = [
    ("Europe/Madrid", datetime(2026, 3, 29)),  # spring forward at 02:00
    ("Europe/Madrid", datetime(2026, 10, 25)),  # fall back at 03:00
    ("America/New_York", datetime(2026, 11, 1)),
    ("Australia/Lord_Howe", datetime(2026, 4, 5)),  # a half-hour change
    ("Pacific/Apia", datetime(2011, 12, 30)),  # a whole day skipped
    ("Antarctica/Troll", datetime(2026, 3, 29)),  # a two-hour change
]


@pytest.mark.parametrize(("name", "day"), CHANGES)
def test_the_guessed_instant_is_wall_to_utcs_for_every_minute_of_a_change(name, day):
    zone = get_zone(name)
    start = day - timedelta(days=1)
    offsets = {
        (start + timedelta(hours=hour)).replace(tzinfo=UTC).astimezone(zone).utcoffset()
        for hour in range(0, 72, 3)
    }
    assert len(offsets) > 1  # a day of change indeed
    for minute in range(0, 3 * 24 * 60, 7):
        wall = start + timedelta(minutes=minute)
        for offset in offsets:
            assert _wall_instant(wall, zone, offset) == wall_to_utc(wall, zone), (wall, offset)


def test_a_naive_moment_made_aware_keeps_every_field():
    moment = datetime(2026, 6, 1, 12, 0, 30, 123456)
    assert utc_from_naive(moment) == moment.replace(tzinfo=UTC)
    assert utc_from_naive(moment).tzinfo is UTC
