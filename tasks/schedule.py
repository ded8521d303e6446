"""When a task runs: cron expressions (with Jenkins-style `H`) in an IANA time zone.

Expressions are parsed once with croniter into sets of allowed values and cached; the next
run is then found by a field-by-field search on wall-clock time, converted to UTC by the
time-zone rules below. Thousands of tasks share a handful of expressions, so parsing and
zone lookups are memoised and the per-task work is a few table lookups.

Daylight-saving rules (no wall-clock time is ever skipped):
- The spring-forward gap: a wall-clock time that does not exist fires at the instant the
  gap ends (a 02:30 daily task runs at 03:00 local that day). Several gap times collapse
  into that one run (`collapsed_into` counts them for the ledger's `dst_gap`); the minutes
  after the gap continue as usual.
- The fall-back repeated hour, by the hour field (as cronie does):
  * a fixed hour (`30 1 * * *`, `0 1,13 * * *`, `H 1 * * *`, @daily) fires once, at the
    first occurrence: a 01:30 daily task runs at 01:30 summer time, not an hour later;
  * a wildcard or step hour (`*`, `*/2`, `1-23/2`, `H/2`, @hourly) runs in elapsed time:
    every matching wall-clock time of the repeated hour fires twice, once per offset, so
    `* * * * *` stays every minute and `0 * * * *` hourly through the change.
"""

from __future__ import annotations

import bisect
import calendar
import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from croniter import CroniterError, croniter

from scheduler_site.sqltools import NAIVE_EPOCH, UTC_EPOCH
from tasks.steady_offsets import MAX_SHIFT, day_number, steady_between, steady_offset

FIELD_RANGES = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
# `H` in the day-of-month field stays within days every month has.
HASH_RANGES = ((0, 59), (0, 23), (1, 28), (1, 12), (0, 6))
MACROS = {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}
SEARCH_YEARS = 9  # long enough for 29 February across a skipped leap year
ONE_MINUTE = timedelta(minutes=1)
ONE_SECOND = timedelta(seconds=1)
HASH_START = re.compile(r"^H(?:[(/]|$)")
NAMES = re.compile(r"[A-Za-z]{3}")
HASH_TOKEN = re.compile(r"^H(?:\((\d+)-(\d+)\))?(?:/(\d+))?$")


class InvalidSchedule(ValueError):
    """A cron expression or time zone that cannot be used."""


@dataclass(frozen=True, eq=False)
class CronSpec:
    key: str  # the expression it was parsed from
    minutes: tuple[int, ...]
    hours: tuple[int, ...]
    days: tuple[int, ...]
    months: tuple[int, ...]
    weekdays: frozenset[int]  # 0 = Sunday
    days_restricted: bool
    weekdays_restricted: bool
    elapsed_hours: bool = False  # a wildcard or step hour: runs twice in a repeated hour

    def day_matches(self, day: datetime) -> bool:
        weekday = (day.weekday() + 1) % 7
        in_days = day.day in self.days
        in_weekdays = weekday in self.weekdays
        if self.days_restricted and self.weekdays_restricted:
            return in_days or in_weekdays
        return in_days and in_weekdays


# --- time zones -------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def get_zone(name: str) -> ZoneInfo:
    if name not in _zone_names():
        raise InvalidSchedule(f"unknown time zone {name!r}")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidSchedule(f"unknown time zone {name!r}") from exc


# Names that are no place's time: `localtime` is whatever the host is set to (so a task would
# change hours with the machine running it), `Factory` a placeholder with no offset.
NOT_A_PLACE = frozenset({"localtime", "Factory", "posixrules"})


def check_zone(name: str) -> ZoneInfo:
    """A time zone a task may be given (stricter than what the tick can still read)."""
    if name in NOT_A_PLACE:
        raise InvalidSchedule(f"time zone {name!r} names no place; use an IANA name")
    return get_zone(name)


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


# --- parsing ----------------------------------------------------------------------------


def resolve_hash(expression: str, seed: str) -> str:
    """Replace each `H` token with a value that is stable for `seed` (the task id)."""
    if "H" not in expression or expression.startswith("@"):
        return expression
    fields = expression.split()
    if len(fields) != 5:
        raise InvalidSchedule("a cron expression has five fields")
    resolved = []
    for index, field in enumerate(fields):
        items = [_resolve_hash_item(item, index, seed) for item in field.split(",")]
        resolved.append(",".join(items))
    return " ".join(resolved)


def _resolve_hash_item(item: str, index: int, seed: str) -> str:
    if not HASH_START.match(item):
        return item
    match = HASH_TOKEN.match(item)
    if not match:
        raise InvalidSchedule(f"cannot read {item!r}: use H, H(a-b), H/n or H(a-b)/n")
    low, high = HASH_RANGES[index]
    if match.group(1) is not None:
        low, high = int(match.group(1)), int(match.group(2))
        field_low, field_high = FIELD_RANGES[index]
        if not field_low <= low <= high <= field_high:
            raise InvalidSchedule(f"range in {item!r} is outside {field_low}-{field_high}")
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    value = int.from_bytes(digest[:8], "big")
    step = match.group(3)
    if step is None:
        return str(low + value % (high - low + 1))
    step_value = int(step)
    if step_value < 1:
        raise InvalidSchedule(f"step in {item!r} must be at least 1")
    start = low + value % min(step_value, high - low + 1)
    return f"{start}-{high}/{step_value}"


@lru_cache(maxsize=8192)
def parse_cron(expression: str) -> CronSpec:
    """Parse a resolved (H-free) five-field expression, or raise InvalidSchedule."""
    text = expression.strip()
    if not text:
        raise InvalidSchedule("the cron expression is empty")
    if text.startswith("@"):
        text = text.lower()
        if text not in MACROS:
            raise InvalidSchedule(f"unknown macro {text!r}")
    elif len(text.split()) != 5:
        raise InvalidSchedule("a cron expression has five fields: minute hour day month weekday")
    if not text.startswith("@") and any(mark in NAMES.sub("", text) for mark in "LlWw#?"):
        raise InvalidSchedule("L, W, # and ? are not supported")
    try:
        expanded, nth_weekdays = croniter.expand(text)
    except (CroniterError, ValueError, KeyError, IndexError) as exc:
        raise InvalidSchedule(f"invalid cron expression: {exc}") from exc
    if nth_weekdays:
        raise InvalidSchedule("# (nth weekday) is not supported")
    spec = _spec_from_fields(text, expanded, _hour_is_elapsed(text))
    if next_wall_time(spec, datetime(2000, 1, 1)) is None:
        raise InvalidSchedule("the cron expression never matches a date")
    return spec


def _hour_is_elapsed(text: str) -> bool:
    """Whether the hour field is a wildcard or a step (H/n was resolved to a step)."""
    if text.startswith("@"):
        return text == "@hourly"
    hour_field = text.split()[1]
    return "*" in hour_field or "/" in hour_field


def _spec_from_fields(key: str, expanded: list[list], elapsed_hours: bool) -> CronSpec:
    values = []
    for (low, high), field in zip(FIELD_RANGES, expanded, strict=True):
        if field == ["*"]:
            values.append(tuple(range(low, high + 1)))
        else:
            values.append(tuple(sorted({7 if v == 7 else int(v) for v in field})))
    weekdays = frozenset(0 if day == 7 else day for day in values[4])
    return CronSpec(
        key=key,
        minutes=values[0],
        hours=values[1],
        days=values[2],
        months=values[3],
        weekdays=weekdays,
        days_restricted=expanded[2] != ["*"],
        weekdays_restricted=expanded[4] != ["*"],
        elapsed_hours=elapsed_hours,
    )


def validate(expression: str, timezone: str, seed: str = "validation") -> str:
    """Check an expression and a time zone; return the expression as stored (trimmed)."""
    text = " ".join(expression.split())
    check_zone(timezone)
    if not text.isascii():
        # int() reads any script's digits ("١", "１"): refused rather than read as numbers.
        raise InvalidSchedule("a cron expression takes ASCII characters only (digits 0-9)")
    parse_cron(resolve_hash(text, seed))
    return text


# --- searching --------------------------------------------------------------------------


def _first_at_least(values: tuple[int, ...], value: int) -> int | None:
    index = bisect.bisect_left(values, value)
    return values[index] if index < len(values) else None


def next_wall_time(spec: CronSpec, after: datetime) -> datetime | None:
    """The first matching wall-clock minute strictly after `after` (naive local time)."""
    start = after + ONE_MINUTE  # seconds are ignored below
    year, month, day, hour, minute = start.year, start.month, start.day, start.hour, start.minute
    limit_year = after.year + SEARCH_YEARS
    while year <= limit_year:
        if month in spec.months:
            found = _first_in_month(spec, year, month, day, hour, minute)
            if found is not None:
                return found
        month, day, hour, minute = month + 1, 1, 0, 0
        if month > 12:
            year, month = year + 1, 1
    return None


def _first_in_month(
    spec: CronSpec, year: int, month: int, day: int, hour: int, minute: int
) -> datetime | None:
    days = _matching_days(spec, year, month)
    index = bisect.bisect_left(days, day)
    if index == len(days):
        return None
    if days[index] > day:
        return datetime(year, month, days[index], spec.hours[0], spec.minutes[0])
    time_of_day = _first_time_at_least(spec, hour, minute)
    if time_of_day is not None:
        return datetime(year, month, day, *time_of_day)
    if index + 1 < len(days):
        return datetime(year, month, days[index + 1], spec.hours[0], spec.minutes[0])
    return None


def _first_time_at_least(spec: CronSpec, hour: int, minute: int) -> tuple[int, int] | None:
    hours = spec.hours
    index = bisect.bisect_left(hours, hour)
    if index == len(hours):
        return None
    if hours[index] == hour:
        next_minute = _first_at_least(spec.minutes, minute)
        if next_minute is not None:
            return hour, next_minute
        index += 1
        if index == len(hours):
            return None
    return hours[index], spec.minutes[0]


_DAYS_CACHE: dict[tuple[str, int, int], tuple[int, ...]] = {}
_DAYS_CACHE_LIMIT = 100_000


def _matching_days(spec: CronSpec, year: int, month: int) -> tuple[int, ...]:
    """The days of one month that match, computed once per expression and month."""
    cache_key = (spec.key, year, month)
    days = _DAYS_CACHE.get(cache_key)
    if days is None:
        if len(_DAYS_CACHE) >= _DAYS_CACHE_LIMIT:
            _DAYS_CACHE.clear()
        length = calendar.monthrange(year, month)[1]
        days = tuple(d for d in range(1, length + 1) if spec.day_matches(datetime(year, month, d)))
        _DAYS_CACHE[cache_key] = days
    return days


def wall_to_utc(wall: datetime, zone: ZoneInfo) -> datetime:
    """The UTC instant of a wall-clock time: its first occurrence, or the end of the
    spring-forward gap it falls in."""
    first = datetime(wall.year, wall.month, wall.day, wall.hour, wall.minute, tzinfo=zone)
    instant = first.astimezone(UTC)
    back = instant.astimezone(zone)
    if back.hour == wall.hour and back.minute == wall.minute and back.day == wall.day:
        return instant
    before = wall.replace(tzinfo=zone, fold=1).astimezone(UTC)
    after = wall.replace(tzinfo=zone, fold=0).astimezone(UTC)
    return _transition(zone, min(before, after), max(before, after))


def _transition(zone: ZoneInfo, low: datetime, high: datetime) -> datetime:
    """The first instant (to the second) with `high`'s offset, `low` having another."""
    low_offset = low.astimezone(zone).utcoffset()
    while high - low > ONE_SECOND:
        middle = low + (high - low) / 2
        if middle.astimezone(zone).utcoffset() == low_offset:
            low = middle
        else:
            high = middle
    return high.replace(microsecond=0)


@lru_cache(maxsize=65536)
def next_run_after(expression: str, timezone: str, after: datetime) -> datetime | None:
    """The first run of a resolved expression strictly after the UTC instant `after`."""
    spec = parse_cron(expression)
    if timezone == "UTC":
        wall = next_wall_time(spec, after)
        return None if wall is None else utc_from_naive(wall)
    zone = get_zone(timezone)
    steady = _steady_run(spec, zone, after)
    return steady if steady is not None else searched_run(spec, timezone, after)


def searched_run(spec: CronSpec, timezone: str, after: datetime) -> datetime | None:
    """next_run_after through the zone's rules, near a change of offset or not."""
    zone = get_zone(timezone)
    local = after.astimezone(zone)
    if spec.elapsed_hours and _falls_back_near(timezone, after.year, after.month, after.day):
        return _elapsed_run(spec, zone, after, local)
    wall = next_wall_time(spec, local)
    offset = local.utcoffset()
    while wall is not None:
        instant = _wall_instant(wall, zone, offset)
        if instant > after:
            return instant
        wall = next_wall_time(spec, wall)
    return None


def _steady_run(spec: CronSpec, zone: ZoneInfo, after: datetime) -> datetime | None:
    """The next run found by subtraction when the zone keeps one offset from LOOK_BACK
    before `after` to MAX_SHIFT past the run (tasks/steady_offsets.py): no gap, no repeated
    hour and no second occurrence can lie there. None: search through the zone's rules
    (near a change, or a run more than a week away)."""
    day = day_number(after)
    offset = steady_offset(zone, day)
    if offset is None:
        return None
    wall = next_wall_time(spec, after - UTC_EPOCH + NAIVE_EPOCH + offset)
    if wall is None:
        return None
    naive = wall - offset
    last = (naive - NAIVE_EPOCH).days
    if last != day and (last - day > 7 or steady_between(zone, day + 1, last) != offset):
        return None
    return utc_from_naive(naive)


def _wall_instant(wall: datetime, zone: ZoneInfo, offset: timedelta) -> datetime:
    """wall_to_utc(wall, zone), tried first at `offset` (the search's starting offset, which
    almost every next run shares): one conversion instead of three when the guess reads
    back at that offset and as the wall time's first occurrence (fold 0: no earlier
    instant shows that time)."""
    guess = utc_from_naive(wall - offset)
    back = guess.astimezone(zone)
    if not back.fold and back.utcoffset() == offset:
        return guess
    return wall_to_utc(wall, zone)


def utc_from_naive(moment: datetime) -> datetime:
    """A naive UTC moment made aware, by arithmetic: on CPython 3.11 `.replace(tzinfo=...)`
    and the constructor's keyword arguments cost 1 to 1.5 µs a call, the sum 0.1 µs, and the
    tick converts a few thousand moments a tick."""
    return UTC_EPOCH + (moment - NAIVE_EPOCH)


@lru_cache(maxsize=4096)
def _falls_back_near(timezone: str, year: int, month: int, day: int) -> bool:
    """Whether the zone's offset drops between the day before and the day after this one:
    a repeated hour can only matter to a run searched from within MAX_SHIFT of it, so on
    every other day an elapsed-time hour is searched as a fixed one (the common, cheap path)."""
    zone = get_zone(timezone)
    moment = datetime(year, month, day, tzinfo=UTC) - timedelta(days=1)
    offset = moment.astimezone(zone).utcoffset()
    for _ in range(72 * 4):  # quarter hours over three days: no offset lasts less
        moment += timedelta(minutes=15)
        following = moment.astimezone(zone).utcoffset()
        if following < offset:
            return True
        offset = following
    return False


def _elapsed_run(
    spec: CronSpec, zone: ZoneInfo, after: datetime, local: datetime
) -> datetime | None:
    """next_run_after for a wildcard or step hour: a repeated hour runs twice."""
    if local.fold:  # inside the second pass of a repeated hour: its times come first
        repeated = _repeated_run(spec, zone, after, _transition(zone, after - MAX_SHIFT, after))
        if repeated is not None:
            return repeated
    found = None
    wall = next_wall_time(spec, local)
    while wall is not None:
        instant = wall_to_utc(wall, zone)
        if instant > after:
            found = instant
            break
        wall = next_wall_time(spec, wall)
    if found is not None and found - after <= MAX_SHIFT:
        # The found run's offset (its wall time less its instant) says whether a fall-back
        # lies between: the cheap test of an ordinary instant.
        if wall - found.replace(tzinfo=None) >= local.utcoffset():
            return found
        probe = found
    else:
        probe = after + MAX_SHIFT
        if probe.astimezone(zone).utcoffset() >= local.utcoffset():
            return found
    repeated = _repeated_run(spec, zone, after, _transition(zone, after, probe))
    if repeated is not None and (found is None or repeated < found):
        return repeated
    return found


def _repeated_run(
    spec: CronSpec, zone: ZoneInfo, after: datetime, change: datetime
) -> datetime | None:
    """The first run after `after` at a second occurrence of a wall time repeated by the
    fall-back at `change` (elapsed-time hours only)."""
    old_offset = (change - ONE_SECOND).astimezone(zone).utcoffset()
    new_offset = change.astimezone(zone).utcoffset()
    naive_change = change.astimezone(UTC).replace(tzinfo=None)
    start, end = naive_change + new_offset, naive_change + old_offset  # the repeated walls
    naive_after = after.astimezone(UTC).replace(tzinfo=None)
    wall = next_wall_time(spec, max(start - ONE_MINUTE, naive_after + new_offset))
    if wall is None or wall >= end:
        return None
    return (wall - new_offset).replace(tzinfo=UTC)


def gap_wall_times(expression: str, timezone: str, instant: datetime) -> tuple[datetime, ...]:
    """The wall-clock times of a resolved expression that run at `instant` because it ends
    a spring-forward gap: those inside the gap, then the gap end's own wall time if it
    matches. Empty when `instant` ends no gap."""
    if timezone == "UTC":
        return ()
    zone = get_zone(timezone)
    old_offset = (instant - ONE_SECOND).astimezone(zone).utcoffset()
    new_offset = instant.astimezone(zone).utcoffset()
    if new_offset <= old_offset:
        return ()
    spec = parse_cron(expression)
    naive = instant.astimezone(UTC).replace(tzinfo=None)
    first, last = naive + old_offset, naive + new_offset
    walls = []
    wall = next_wall_time(spec, first - ONE_MINUTE)
    while wall is not None and wall <= last:
        walls.append(wall)
        wall = next_wall_time(spec, wall)
    return tuple(walls)


def collapsed_into(expression: str, timezone: str, instant: datetime) -> int:
    """How many wall-clock times of a fixed-hour expression the run at `instant` stands for
    when a spring-forward gap collapsed them into it (0 when it ends no gap; a 1 is a time
    moved to the gap end). A wildcard or step hour runs in elapsed time, where the gap loses
    nothing (`* * * * *` runs at 00:59 and 01:00 UTC in Madrid): 0 as well."""
    if timezone == "UTC" or steady_offset(get_zone(timezone), day_number(instant)) is not None:
        return 0  # no gap ends within hours of the instant: the common case, without a search
    return _collapsed_near_change(expression, timezone, instant)


@lru_cache(maxsize=65536)
def _collapsed_near_change(expression: str, timezone: str, instant: datetime) -> int:
    if parse_cron(expression).elapsed_hours:
        return 0
    return len(gap_wall_times(expression, timezone, instant))


def next_cron_run(cron: str, timezone: str, seed: str, after: datetime) -> datetime | None:
    """The next run of a task's cron (which may hold `H`) strictly after `after`."""
    return next_run_after(resolve_hash_cached(cron, seed), timezone, after)


@lru_cache(maxsize=65536)
def resolve_hash_cached(cron: str, seed: str) -> str:
    return resolve_hash(cron, seed)
