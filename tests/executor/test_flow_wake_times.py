"""How long the executor waits for a flow's wake time: never past its poll, never a busy
loop on a wake time already gone."""

from datetime import UTC, datetime, timedelta

from execution.flow_wake import MIN_WAIT_SECONDS, until_flow_wake

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def test_a_wake_time_before_the_poll_shortens_the_wait():
    assert until_flow_wake(NOW + timedelta(seconds=1.5), 5, NOW) == 1.5


def test_a_wake_time_after_the_poll_leaves_the_poll():
    assert until_flow_wake(NOW + timedelta(seconds=9), 5, NOW) == 5


def test_a_wake_time_just_past_waits_the_minimum():
    assert until_flow_wake(NOW - timedelta(milliseconds=20), 5, NOW) == MIN_WAIT_SECONDS


def test_a_wake_time_long_past_is_ignored():
    assert until_flow_wake(NOW - timedelta(seconds=3), 5, NOW) == 5


def test_no_wake_time_leaves_the_wait():
    assert until_flow_wake(None, 0.05, NOW) == 0.05
