"""Bad schedule kinds, windows and run limits are a 400 naming the field, and write nothing."""

import pytest

from tests.api.test_task_validation import assert_rejected
from tests.conftest import PUBLIC_URL, cron_task, one_off_task


def interval_task(**overrides) -> dict:
    return {"interval_seconds": 60, "url": PUBLIC_URL, **overrides}


@pytest.mark.parametrize("seconds", [0, -5, 31_536_001, "often", 1.5])
def test_an_interval_out_of_range_is_rejected(api, seconds):
    assert_rejected(api, interval_task(interval_seconds=seconds), "interval_seconds")


def test_an_interval_beside_a_cron_is_rejected(api):
    assert_rejected(api, cron_task(interval_seconds=60), "interval_seconds")


def test_an_interval_beside_a_run_at_is_rejected(api):
    assert_rejected(api, one_off_task(interval_seconds=60), "interval_seconds")


def test_a_task_with_no_schedule_kind_names_interval_seconds_among_the_choices(api):
    assert_rejected(api, {"url": PUBLIC_URL}, "interval_seconds")


@pytest.mark.parametrize(
    ("field", "value"),
    [("starts_at", "2030-01-01T00:00:00Z"), ("ends_at", "2030-01-01T00:00:00Z"), ("max_runs", 3)],
)
def test_a_one_off_task_with_a_window_or_run_limit_is_rejected(api, field, value):
    assert_rejected(api, one_off_task(**{field: value}), field)


@pytest.mark.parametrize("max_runs", [0, -1])
def test_max_runs_below_one_is_rejected(api, max_runs):
    assert_rejected(api, interval_task(max_runs=max_runs), "max_runs")


@pytest.mark.parametrize("ends_at", ["2030-01-01T00:00:00Z", "2029-12-31T23:00:00Z"])
def test_an_end_not_after_the_start_is_rejected(api, ends_at):
    body = interval_task(starts_at="2030-01-01T00:00:00Z", ends_at=ends_at)
    assert_rejected(api, body, "ends_at")


@pytest.mark.parametrize("field", ["starts_at", "ends_at"])
def test_a_naive_window_instant_is_rejected(api, field):
    assert_rejected(api, interval_task(**{field: "2030-01-01T09:00:00"}), field)


def test_a_window_already_over_is_rejected_at_create(api):
    assert_rejected(api, cron_task(ends_at="2020-01-01T00:00:00Z"), "ends_at")


def test_a_cron_window_that_holds_no_run_is_rejected_at_create(api):
    body = cron_task(cron="0 3 * * *", starts_at="2030-01-01T04:00:00Z")
    assert_rejected(api, body | {"ends_at": "2030-01-01T05:00:00Z"}, "ends_at")


def test_hash_jitter_stays_cron_only(api):
    assert_rejected(api, interval_task(interval_seconds="H"), "interval_seconds")


def test_a_cron_start_with_no_representable_run_is_rejected(api):
    assert_rejected(api, cron_task(starts_at="9999-12-31T23:59:59Z"), "starts_at")
