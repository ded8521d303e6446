"""Whether a time zone keeps one UTC offset through a whole UTC day, and which.

The next-run search and the gap count need the daylight-saving rules only near a change of
offset; almost every day of almost every zone has none. Knowing that a day (with LOOK_BACK
before it and MAX_SHIFT after) keeps one offset lets them turn wall times into instants by
subtraction, with no conversion through the zone at all. Each (zone, day) is sampled once
per process and kept: the tick asks about the same few days of a few hundred zones all day.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from scheduler_site.sqltools import UTC_EPOCH

# Wider than any daylight-saving shift (Antarctica/Troll's is two hours): a wall time within
# MAX_SHIFT of a steady day can be no other day's too.
MAX_SHIFT = timedelta(hours=3)
# Wider than any two offsets of one zone apart (25.5 hours at most in tzdata: Apia's): a
# change backwards by S hours repeats the wall times of the S hours after it, so a steady
# day needs no change that far before it (Pacific/Kwajalein went back 23 hours in 1969).
LOOK_BACK = timedelta(hours=27)
# No offset of any zone lasts less than this: sampled this often, a change cannot hide.
SAMPLE = timedelta(minutes=15)
_SAMPLES = int((LOOK_BACK + timedelta(days=1) + MAX_SHIFT) / SAMPLE)


def day_number(instant: datetime) -> int:
    """The UTC day of an aware instant, counted from 1970-01-01."""
    return (instant - UTC_EPOCH).days


@lru_cache(maxsize=65536)
def steady_offset(zone: ZoneInfo, day: int) -> timedelta | None:
    """The zone's offset if it holds from LOOK_BACK before the UTC day `day` to MAX_SHIFT
    after it, else None (an offset changes then, or the day is beyond the calendar)."""
    try:
        moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(days=day) - LOOK_BACK
        offset = moment.astimezone(zone).utcoffset()
        for _ in range(_SAMPLES):
            moment += SAMPLE
            if moment.astimezone(zone).utcoffset() != offset:
                return None
    except OverflowError:  # within MAX_SHIFT of year 1 or 9999
        return None
    return offset


def steady_between(zone: ZoneInfo, first: int, last: int) -> timedelta | None:
    """The one offset of the days first..last (all steady at it), or None."""
    offset = steady_offset(zone, first)
    for day in range(first + 1, last + 1):
        if offset is None or steady_offset(zone, day) != offset:
            return None
    return offset
