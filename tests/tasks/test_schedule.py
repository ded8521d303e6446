"""Specification of tasks.schedule: when a cron task runs.

Pure unit tests (no database). Every instant given to or returned by the schedule functions
is an aware UTC datetime; local wall-clock times are only mentioned in comments and names.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from croniter import croniter

from tasks.schedule import (
    InvalidSchedule,
    next_cron_run,
    next_run_after,
    parse_cron,
    resolve_hash,
    validate,
)

# --- helpers ----------------------------------------------------------------------------


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def runs(expression: str, timezone: str, start: datetime, count: int) -> list[datetime]:
    """The first `count` runs strictly after `start`, each chained from the previous one."""
    result = []
    moment = start
    for _ in range(count):
        moment = next_run_after(expression, timezone, moment)
        assert moment is not None, f"{expression!r} stopped after {result[-1:]}"
        result.append(moment)
    return result


def runs_until(expression: str, timezone: str, start: datetime, end: datetime) -> list[datetime]:
    """Every run strictly after `start` and before `end`."""
    result = []
    moment = next_run_after(expression, timezone, start)
    while moment is not None and moment < end:
        result.append(moment)
        moment = next_run_after(expression, timezone, moment)
    return result


def hashed_field(expression: str, seed: str, index: int) -> str:
    return resolve_hash(expression, seed).split()[index]


def assert_strictly_increasing(instants: list[datetime]) -> None:
    for earlier, later in zip(instants, instants[1:], strict=False):
        assert earlier < later, f"{later} does not come after {earlier}"


# --- common expressions in UTC ----------------------------------------------------------


def test_every_minute_runs_at_the_next_minute():
    assert next_run_after("* * * * *", "UTC", utc(2026, 1, 1, 10, 0)) == utc(2026, 1, 1, 10, 1)


def test_every_fifteen_minutes_runs_at_the_next_quarter_hour():
    assert next_run_after("*/15 * * * *", "UTC", utc(2026, 1, 1, 10, 7)) == utc(2026, 1, 1, 10, 15)


def test_every_fifteen_minutes_rolls_over_to_the_next_hour():
    assert next_run_after("*/15 * * * *", "UTC", utc(2026, 1, 1, 10, 50)) == utc(2026, 1, 1, 11, 0)


def test_hourly_at_minute_seven_runs_at_seven_past():
    assert next_run_after("7 * * * *", "UTC", utc(2026, 1, 1, 10, 7)) == utc(2026, 1, 1, 11, 7)
    assert next_run_after("7 * * * *", "UTC", utc(2026, 1, 1, 10, 6)) == utc(2026, 1, 1, 10, 7)


def test_daily_at_three_runs_today_before_three():
    assert next_run_after("0 3 * * *", "UTC", utc(2026, 1, 1, 2, 0)) == utc(2026, 1, 1, 3, 0)


def test_daily_at_three_runs_tomorrow_after_three():
    assert next_run_after("0 3 * * *", "UTC", utc(2026, 1, 1, 4, 0)) == utc(2026, 1, 2, 3, 0)


def test_weekdays_only_skips_the_weekend():
    # 2026-01-02 is a Friday; the next weekday is Monday 2026-01-05.
    assert next_run_after("0 9 * * MON-FRI", "UTC", utc(2026, 1, 2, 10, 0)) == utc(2026, 1, 5, 9, 0)


def test_weekdays_only_runs_every_weekday():
    week = runs("0 9 * * 1-5", "UTC", utc(2026, 1, 4, 12, 0), 5)  # from Sunday
    assert [run.weekday() for run in week] == [0, 1, 2, 3, 4]


def test_first_of_month_runs_on_the_first_of_next_month():
    assert next_run_after("0 0 1 * *", "UTC", utc(2026, 1, 15)) == utc(2026, 2, 1)


def test_first_of_month_rolls_over_the_year():
    assert next_run_after("0 0 1 * *", "UTC", utc(2026, 12, 1, 0, 1)) == utc(2027, 1, 1)


def test_specific_months_by_number_skip_other_months():
    assert runs("0 0 1 1,7 *", "UTC", utc(2026, 2, 1), 3) == [
        utc(2026, 7, 1),
        utc(2027, 1, 1),
        utc(2027, 7, 1),
    ]


def test_specific_months_by_name_jan_jul_skip_other_months():
    # BUG in schedule.parse_cron: the "L, W, # and ?" check looks for the letter L anywhere
    # in the upper-cased text, so the month name JUL is rejected as if it were the L form.
    try:
        result = runs("0 0 1 JAN,JUL *", "UTC", utc(2026, 2, 1), 3)
    except InvalidSchedule as exc:
        pytest.fail(f"'0 0 1 JAN,JUL *' is standard cron but was rejected: {exc}")
    assert result == [utc(2026, 7, 1), utc(2027, 1, 1), utc(2027, 7, 1)]


def test_weekday_name_wed_is_accepted():
    # BUG in schedule.parse_cron: the same letter check rejects W inside the name WED.
    try:
        result = next_run_after("0 0 * * WED", "UTC", utc(2026, 1, 1))  # a Thursday
    except InvalidSchedule as exc:
        pytest.fail(f"'0 0 * * WED' is standard cron but was rejected: {exc}")
    assert result == utc(2026, 1, 7)


def test_weekday_name_thu_is_accepted_for_a_task():
    # BUG in schedule.resolve_hash: any "H" in the text is taken for a Jenkins H token, so
    # the weekday name THU fails with "cannot read 'THU'" (in validate and next_cron_run).
    try:
        result = next_cron_run("0 0 * * THU", "UTC", "task-1", utc(2026, 1, 2))
    except InvalidSchedule as exc:
        pytest.fail(f"'0 0 * * THU' is standard cron but was rejected: {exc}")
    assert result == utc(2026, 1, 8)


def test_daily_macro_runs_at_midnight():
    assert next_run_after("@daily", "UTC", utc(2026, 1, 1, 10, 0)) == utc(2026, 1, 2)


def test_hourly_macro_runs_on_the_hour():
    assert next_run_after("@hourly", "UTC", utc(2026, 1, 1, 10, 30)) == utc(2026, 1, 1, 11, 0)


@pytest.mark.parametrize("sunday", ["0", "7", "SUN"])
def test_sunday_may_be_written_as_0_or_7(sunday):
    # 2026-01-01 is a Thursday; the next Sunday is 2026-01-04.
    assert runs(f"0 0 * * {sunday}", "UTC", utc(2026, 1, 1), 2) == [
        utc(2026, 1, 4),
        utc(2026, 1, 11),
    ]


# --- day of month OR day of week --------------------------------------------------------


def test_day_of_month_and_day_of_week_both_restricted_match_either():
    # "the 13th, or any Friday": Fri 2 Jan, Fri 9 Jan, Tue 13 Jan, Fri 16 Jan.
    assert runs("0 0 13 * 5", "UTC", utc(2026, 1, 1), 4) == [
        utc(2026, 1, 2),
        utc(2026, 1, 9),
        utc(2026, 1, 13),
        utc(2026, 1, 16),
    ]


def test_day_of_month_alone_ignores_the_weekday():
    assert runs("0 0 13 * *", "UTC", utc(2026, 1, 1), 2) == [utc(2026, 1, 13), utc(2026, 2, 13)]


def test_day_of_week_alone_ignores_the_day_of_month():
    assert runs("0 0 * * 5", "UTC", utc(2026, 1, 10), 2) == [utc(2026, 1, 16), utc(2026, 1, 23)]


# --- agreement with croniter in UTC -----------------------------------------------------

CRONITER_TABLE = [
    "* * * * *",
    "*/15 * * * *",
    "7 * * * *",
    "5,35 */4 * * *",
    "*/7 */5 * * *",
    "0 3 * * *",
    "0 9 * * MON-FRI",
    "0 8-17/3 * * 1-5",
    "0 0 1 * *",
    "0 0 1 1,7 *",
    "0 0 15 FEB,AUG *",
    "15 10 1-7 * *",
    "0 12 13 * 5",
    "30 2 */2 * 1",
    "0 0 * * 0",
    "0 0 * * 7",
    "10-20/5 1 * JAN SUN",
    "59 23 31 12 *",
    "0 0 29 2 *",
    "@daily",
    "@hourly",
    "@weekly",
    "@monthly",
    "@yearly",
]

CRONITER_STARTS = [
    utc(2026, 1, 1),  # on a match for many expressions
    utc(2024, 2, 28, 23, 59, 30),  # seconds, the eve of a leap day
    utc(2026, 3, 8, 6, 59, 59, 500000),  # microseconds
    utc(2026, 12, 31, 23, 45),  # the end of a year
]


@pytest.mark.parametrize("expression", CRONITER_TABLE)
def test_fifty_chained_runs_agree_with_croniter_in_utc(expression):
    for start in CRONITER_STARTS:
        reference = croniter(expression, start)
        expected = [reference.get_next(datetime) for _ in range(50)]
        assert runs(expression, "UTC", start, 50) == expected, f"from {start}"


# --- strictly after ---------------------------------------------------------------------


def test_a_start_exactly_on_a_match_returns_the_following_match():
    assert next_run_after("0 3 * * *", "UTC", utc(2026, 1, 1, 3, 0)) == utc(2026, 1, 2, 3, 0)
    assert next_run_after("* * * * *", "UTC", utc(2026, 1, 1, 3, 0)) == utc(2026, 1, 1, 3, 1)


def test_a_start_a_microsecond_after_a_match_returns_the_following_match():
    start = utc(2026, 1, 1, 3, 0, 0, 1)
    assert next_run_after("0 3 * * *", "UTC", start) == utc(2026, 1, 2, 3, 0)


def test_a_start_a_microsecond_before_a_match_returns_that_match():
    start = utc(2026, 1, 1, 2, 59, 59, 999999)
    assert next_run_after("0 3 * * *", "UTC", start) == utc(2026, 1, 1, 3, 0)


def test_seconds_in_the_start_are_dropped_to_the_next_whole_minute():
    assert next_run_after("* * * * *", "UTC", utc(2026, 1, 1, 10, 0, 30)) == utc(2026, 1, 1, 10, 1)


def test_results_are_whole_minutes():
    result = next_run_after("* * * * *", "UTC", utc(2026, 1, 1, 10, 0, 30, 123456))
    assert (result.second, result.microsecond) == (0, 0)


def test_a_start_exactly_on_a_local_match_returns_the_following_match():
    # 00:00 UTC is 09:00 in Tokyo.
    assert next_run_after("0 9 * * *", "Asia/Tokyo", utc(2026, 6, 1, 0, 0)) == utc(2026, 6, 2, 0, 0)


# --- time zones -------------------------------------------------------------------------


def test_nine_in_tokyo_is_midnight_utc():
    assert next_run_after("0 9 * * *", "Asia/Tokyo", utc(2026, 6, 1, 1, 0)) == utc(2026, 6, 2)


def test_nine_in_new_york_in_winter_is_fourteen_utc():
    assert next_run_after("0 9 * * *", "America/New_York", utc(2026, 1, 15)) == utc(
        2026, 1, 15, 14, 0
    )


def test_nine_in_new_york_in_summer_is_thirteen_utc():
    assert next_run_after("0 9 * * *", "America/New_York", utc(2026, 7, 15)) == utc(
        2026, 7, 15, 13, 0
    )


def test_nine_in_kolkata_is_three_thirty_utc():
    assert next_run_after("0 9 * * *", "Asia/Kolkata", utc(2026, 1, 15)) == utc(2026, 1, 15, 3, 30)


def test_local_days_follow_the_zone_not_utc():
    # 23:00 UTC on Thursday 1 January is 08:00 on Friday 2 January in Tokyo.
    assert next_run_after("0 9 * * 5", "Asia/Tokyo", utc(2026, 1, 1, 23, 0)) == utc(
        2026, 1, 2, 0, 0
    )


def test_nine_at_lord_howe_in_summer_uses_plus_eleven():
    assert next_run_after("0 9 * * *", "Australia/Lord_Howe", utc(2026, 1, 15)) == utc(
        2026, 1, 15, 22, 0
    )


def test_nine_at_lord_howe_in_winter_uses_plus_ten_thirty():
    assert next_run_after("0 9 * * *", "Australia/Lord_Howe", utc(2026, 7, 15)) == utc(
        2026, 7, 15, 22, 30
    )


def test_lord_howe_thirty_minute_gap_fires_when_the_gap_ends():
    # 2026-10-04 02:00 +10:30 jumps to 02:30 +11:00 (15:30 UTC on the 3rd).
    assert runs("15 2 * * *", "Australia/Lord_Howe", utc(2026, 10, 3), 2) == [
        utc(2026, 10, 3, 15, 30),  # 02:30 local, the end of the gap
        utc(2026, 10, 4, 15, 15),  # 02:15 local the next day
    ]


def test_lord_howe_thirty_minute_overlap_fires_once_at_the_first_occurrence():
    # 2026-04-05 02:00 +11:00 falls back to 01:30 +10:30; 01:45 happens twice.
    assert runs("45 1 * * *", "Australia/Lord_Howe", utc(2026, 4, 4), 2) == [
        utc(2026, 4, 4, 14, 45),  # 01:45 +11:00
        utc(2026, 4, 5, 15, 15),  # 01:45 +10:30 the next day, not 15:15 on the 4th
    ]


def test_utc_spelled_as_a_zone_name_behaves_like_utc():
    start = utc(2026, 3, 29)
    assert runs("*/15 * * * *", "Etc/UTC", start, 20) == runs("*/15 * * * *", "UTC", start, 20)


# --- daylight saving: spring forward ----------------------------------------------------


def test_madrid_spring_forward_daily_0230_runs_when_the_gap_ends():
    # 2026-03-29 02:00 CET (01:00 UTC) jumps to 03:00 CEST.
    assert next_run_after("30 2 * * *", "Europe/Madrid", utc(2026, 3, 28, 12)) == utc(
        2026, 3, 29, 1, 0
    )


def test_madrid_spring_forward_daily_0230_runs_at_0230_the_next_day():
    assert runs("30 2 * * *", "Europe/Madrid", utc(2026, 3, 28, 12), 2)[1] == utc(
        2026, 3, 30, 0, 30
    )


def test_new_york_spring_forward_daily_0230_runs_when_the_gap_ends():
    # 2026-03-08 02:00 EST (07:00 UTC) jumps to 03:00 EDT.
    assert next_run_after("30 2 * * *", "America/New_York", utc(2026, 3, 7, 12)) == utc(
        2026, 3, 8, 7, 0
    )


def test_new_york_spring_forward_daily_0230_runs_at_0230_the_next_day():
    assert runs("30 2 * * *", "America/New_York", utc(2026, 3, 7, 12), 2)[1] == utc(
        2026, 3, 9, 6, 30
    )


def test_madrid_spring_forward_quarter_hours_in_the_gap_collapse_into_one_run():
    # From 01:30 CET: 01:45 CET, then 02:00-02:45 (gap) and 03:00 CEST all at 01:00 UTC.
    assert runs("*/15 * * * *", "Europe/Madrid", utc(2026, 3, 29, 0, 30), 3) == [
        utc(2026, 3, 29, 0, 45),
        utc(2026, 3, 29, 1, 0),
        utc(2026, 3, 29, 1, 15),
    ]


def test_new_york_spring_forward_quarter_hours_in_the_gap_collapse_into_one_run():
    assert runs("*/15 * * * *", "America/New_York", utc(2026, 3, 8, 6, 30), 3) == [
        utc(2026, 3, 8, 6, 45),
        utc(2026, 3, 8, 7, 0),
        utc(2026, 3, 8, 7, 15),
    ]


@pytest.mark.parametrize(
    ("timezone", "day_start", "day_end"),
    [
        # local midnight to local midnight on the 23-hour day
        ("Europe/Madrid", utc(2026, 3, 28, 23, 0), utc(2026, 3, 29, 22, 0)),
        ("America/New_York", utc(2026, 3, 8, 5, 0), utc(2026, 3, 9, 4, 0)),
    ],
)
def test_spring_forward_day_runs_are_strictly_increasing_and_never_repeated(
    timezone, day_start, day_end
):
    day = runs_until("*/15 * * * *", timezone, day_start - timedelta(seconds=1), day_end)
    assert_strictly_increasing(day)
    assert len(day) == len(set(day)) == 23 * 4


# --- daylight saving: fall back ---------------------------------------------------------


def test_new_york_fall_back_daily_0130_runs_at_the_summer_time_occurrence():
    # 2026-11-01 02:00 EDT (06:00 UTC) falls back to 01:00 EST; 01:30 EDT is 05:30 UTC.
    assert next_run_after("30 1 * * *", "America/New_York", utc(2026, 10, 31, 12)) == utc(
        2026, 11, 1, 5, 30
    )


def test_new_york_fall_back_daily_0130_does_not_run_again_an_hour_later():
    assert runs("30 1 * * *", "America/New_York", utc(2026, 10, 31, 12), 2) == [
        utc(2026, 11, 1, 5, 30),
        utc(2026, 11, 2, 6, 30),  # 01:30 EST the next day, not 06:30 UTC on the 1st
    ]


def test_madrid_fall_back_daily_0230_runs_at_the_summer_time_occurrence():
    # 2026-10-25 03:00 CEST (01:00 UTC) falls back to 02:00 CET; 02:30 CEST is 00:30 UTC.
    assert next_run_after("30 2 * * *", "Europe/Madrid", utc(2026, 10, 24, 12)) == utc(
        2026, 10, 25, 0, 30
    )


def test_madrid_fall_back_daily_0230_does_not_run_again_an_hour_later():
    assert runs("30 2 * * *", "Europe/Madrid", utc(2026, 10, 24, 12), 2) == [
        utc(2026, 10, 25, 0, 30),
        utc(2026, 10, 26, 1, 30),  # 02:30 CET the next day, not 01:30 UTC on the 25th
    ]


def test_new_york_chaining_from_the_repeated_hour_does_not_go_backwards():
    inside_second_pass = utc(2026, 11, 1, 6, 45)  # 01:45 EST, after 01:30 EDT has fired
    result = next_run_after("30 1 * * *", "America/New_York", inside_second_pass)
    assert result == utc(2026, 11, 2, 6, 30)


def test_madrid_chaining_from_the_repeated_hour_does_not_go_backwards():
    inside_second_pass = utc(2026, 10, 25, 1, 10)  # 02:10 CET
    result = next_run_after("30 2 * * *", "Europe/Madrid", inside_second_pass)
    assert result == utc(2026, 10, 26, 1, 30)


def test_quarter_hours_in_the_repeated_hour_fire_in_the_second_pass_too():
    # From 01:10 EST (second pass) the next run is 01:15 EST: the hour is a wildcard.
    result = next_run_after("*/15 * * * *", "America/New_York", utc(2026, 11, 1, 6, 10))
    assert result == utc(2026, 11, 1, 6, 15)


@pytest.mark.parametrize(
    ("timezone", "day_start", "day_end"),
    [
        # local midnight to local midnight on the 25-hour day
        ("Europe/Madrid", utc(2026, 10, 24, 22, 0), utc(2026, 10, 25, 23, 0)),
        ("America/New_York", utc(2026, 11, 1, 4, 0), utc(2026, 11, 2, 5, 0)),
    ],
)
def test_fall_back_day_runs_quarter_hours_in_elapsed_time(timezone, day_start, day_end):
    day = runs_until("*/15 * * * *", timezone, day_start - timedelta(seconds=1), day_end)
    assert_strictly_increasing(day)
    assert len(day) == len(set(day)) == 25 * 4


# --- Jenkins-style H --------------------------------------------------------------------

SEEDS = [f"task-{number}" for number in range(200)]


def test_h_is_stable_for_the_same_seed():
    assert resolve_hash("H H * * *", "task-42") == resolve_hash("H H * * *", "task-42")
    start = utc(2026, 1, 1)
    assert next_cron_run("H H * * *", "UTC", "task-42", start) == next_cron_run(
        "H H * * *", "UTC", "task-42", start
    )


def test_h_resolves_to_a_plain_cron_expression():
    resolved = resolve_hash("H H * * *", "task-42")
    assert "H" not in resolved
    parse_cron(resolved)


def test_h_spreads_different_seeds_over_the_range():
    minutes = {int(hashed_field("H * * * *", seed, 0)) for seed in SEEDS}
    assert len(minutes) > 30
    assert minutes <= set(range(60))


def test_h_in_the_hour_field_stays_within_hours():
    hours = {int(hashed_field("0 H * * *", seed, 1)) for seed in SEEDS}
    assert hours <= set(range(24))
    assert len(hours) > 12


def test_h_with_a_range_stays_in_the_range():
    minutes = {int(hashed_field("H(0-29) * * * *", seed, 0)) for seed in SEEDS}
    assert minutes <= set(range(30))
    assert len(minutes) > 15


def test_h_slash_fifteen_runs_four_times_an_hour_at_a_stable_offset():
    hour_runs = [next_cron_run("H/15 * * * *", "UTC", "task-7", utc(2026, 1, 1, 9, 59, 59))]
    while len(hour_runs) < 12:
        hour_runs.append(next_cron_run("H/15 * * * *", "UTC", "task-7", hour_runs[-1]))
    offset = hour_runs[0].minute
    assert 0 <= offset < 15
    assert [run.minute for run in hour_runs] == [offset, offset + 15, offset + 30, offset + 45] * 3
    assert [run.hour for run in hour_runs] == [10] * 4 + [11] * 4 + [12] * 4


def test_h_slash_fifteen_offsets_vary_between_seeds():
    offsets = {int(hashed_field("H/15 * * * *", seed, 0).split("-")[0]) for seed in SEEDS}
    assert offsets <= set(range(15))
    assert len(offsets) > 5


def test_h_in_the_day_of_month_stays_within_days_every_month_has():
    days = {int(hashed_field("0 0 H * *", seed, 2)) for seed in SEEDS}
    assert days <= set(range(1, 29))
    assert len(days) > 10


def test_h_in_the_day_of_month_runs_every_month_including_february():
    for seed in SEEDS[:20]:
        months = [
            run.month
            for run in (
                next_cron_run("0 0 H * *", "UTC", seed, utc(2026, month, 1) - timedelta(minutes=1))
                for month in range(1, 13)
            )
        ]
        assert months == list(range(1, 13)), seed


def test_h_leaves_other_fields_alone():
    assert resolve_hash("H 3 * * 1-5", "task-1").split()[1:] == ["3", "*", "*", "1-5"]


def test_an_expression_without_h_is_returned_unchanged():
    assert resolve_hash("0 3 * * *", "task-1") == "0 3 * * *"


@pytest.mark.parametrize("expression", ["H(5) * * * *", "H(30-10) * * * *"])
def test_malformed_h_raises_invalid_schedule(expression):
    with pytest.raises(InvalidSchedule):
        resolve_hash(expression, "task-1")
    with pytest.raises(InvalidSchedule):
        validate(expression, "UTC")


def test_h_range_outside_the_field_raises_invalid_schedule():
    with pytest.raises(InvalidSchedule):
        resolve_hash("H(0-60) * * * *", "task-1")


# --- invalid input ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        pytest.param("0 0 0 * * *", id="six fields"),
        pytest.param("0 0 * *", id="four fields"),
        pytest.param("61 * * * *", id="minute 61"),
        pytest.param("0 24 * * *", id="hour 24"),
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("0 0 L * *", id="L last day"),
        pytest.param("0 0 * * 5L", id="L last weekday"),
        pytest.param("0 0 15W * *", id="W nearest weekday"),
        pytest.param("0 0 * * 1#2", id="# nth weekday"),
        pytest.param("0 0 30 2 *", id="30 February never exists"),
        pytest.param("0 0 31 4,6,9,11 *", id="31st of a 30-day month"),
        pytest.param("@reboot", id="unknown macro"),
        pytest.param("@fortnightly", id="made-up macro"),
        pytest.param("abc * * * *", id="garbage"),
    ],
)
def test_invalid_expression_raises_invalid_schedule(expression):
    with pytest.raises(InvalidSchedule):
        validate(expression, "UTC")


def test_invalid_schedule_is_a_value_error():
    assert issubclass(InvalidSchedule, ValueError)


def test_parse_cron_rejects_a_date_that_never_exists():
    with pytest.raises(InvalidSchedule, match="never"):
        parse_cron("0 0 30 2 *")


def test_unknown_time_zone_raises_invalid_schedule():
    with pytest.raises(InvalidSchedule):
        validate("0 3 * * *", "Mars/Olympus")


def test_unknown_time_zone_raises_invalid_schedule_when_computing_a_run():
    with pytest.raises(InvalidSchedule):
        next_run_after("0 3 * * *", "Mars/Olympus", utc(2026, 1, 1))


# --- leap day ---------------------------------------------------------------------------


def test_leap_day_finds_the_next_29_february():
    assert next_run_after("0 0 29 2 *", "UTC", utc(2026, 3, 1)) == utc(2028, 2, 29)


def test_leap_day_skips_a_century_that_is_not_a_leap_year():
    assert next_run_after("0 0 29 2 *", "UTC", utc(2096, 3, 1)) == utc(2104, 2, 29)


# --- validate ---------------------------------------------------------------------------


def test_validate_collapses_whitespace_and_returns_the_stored_text():
    assert validate("  0   3\t* *  *\n", "UTC") == "0 3 * * *"


def test_validate_returns_h_expressions_unresolved():
    assert validate("H  H * * *", "Europe/Madrid") == "H H * * *"


def test_validate_accepts_a_macro():
    assert validate("@daily", "Asia/Tokyo") == "@daily"
