"""tasks/timing.py: one schedule object for cron and interval tasks, inside a window."""

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from uuid import UUID

from tasks.timing import Schedule, ceil_second, schedule_of

START = datetime(2030, 1, 1, 0, 0, tzinfo=UTC)
TASK_ID = UUID("01a22754-6026-7ed2-b47c-5491fcc5bdc5")


def every(seconds: int, **window) -> Schedule:
    return Schedule(None, "UTC", seconds, window.get("starts_at", START), **window)


def test_an_interval_runs_at_its_anchor_and_every_interval_after():
    timing = every(90)
    assert timing.next_after(START - timedelta(days=3)) == START
    assert timing.next_after(START) == START + timedelta(seconds=90)
    assert timing.next_after(START + timedelta(seconds=100)) == START + timedelta(seconds=180)


def test_an_interval_ignores_the_zone():
    timing = Schedule(None, "Europe/Madrid", 3600, START)
    spring = datetime(2030, 3, 31, 0, 0, tzinfo=UTC)  # 01:00 CET, an hour before the gap
    assert timing.next_after(spring) == spring + timedelta(hours=1)


def test_no_run_at_or_after_the_end_of_the_window():
    timing = every(60, ends_at=START + timedelta(minutes=2))
    assert timing.next_after(START) == START + timedelta(minutes=1)
    assert timing.next_after(START + timedelta(minutes=1)) is None


def test_a_cron_runs_only_from_the_start_of_its_window():
    starts = datetime(2030, 1, 1, 3, 30, tzinfo=UTC)
    timing = Schedule("0 * * * *", "UTC", None, None, starts_at=starts)
    assert timing.next_after(START) == datetime(2030, 1, 1, 4, 0, tzinfo=UTC)


def test_the_start_itself_may_be_a_run():
    timing = Schedule("0 * * * *", "UTC", None, None, starts_at=START)
    assert timing.next_after(START - timedelta(days=1)) == START


def test_runs_between_lists_every_run_in_a_half_open_range():
    runs = list(every(600).runs_between(START, START + timedelta(minutes=30)))
    assert runs == [START + timedelta(minutes=m) for m in (0, 10, 20)]


def test_an_interval_task_without_a_start_is_phased_from_its_creation_rounded_up():
    created = datetime(2030, 1, 1, 0, 0, 0, 250_000, tzinfo=UTC)
    task = SimpleNamespace(
        id=TASK_ID, cron=None, timezone="UTC", interval_seconds=5,
        starts_at=None, ends_at=None, created_at=created,
    )  # fmt: skip
    assert schedule_of(task).anchor == datetime(2030, 1, 1, 0, 0, 1, tzinfo=UTC)


def test_a_cron_tasks_hash_is_resolved_for_that_task():
    task = SimpleNamespace(
        id=TASK_ID, cron="H * * * *", timezone="UTC", interval_seconds=None,
        starts_at=None, ends_at=None, created_at=START,
    )  # fmt: skip
    assert "H" not in schedule_of(task).cron


def test_ceil_second_keeps_a_whole_second():
    assert ceil_second(START) == START


def test_a_run_past_the_last_representable_instant_is_none():
    last = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
    assert every(3600, starts_at=last).next_after(last) is None
    assert Schedule("0 3 * * *", "Europe/Madrid", None, None).next_after(last) is None
