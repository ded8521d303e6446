"""An executor paces a rate-limited flow's calls by when it offers them: the call after a
period's `rate` waits until the oldest of them is a period old."""

import time

from execution.flow_pace import FlowPace


def test_the_first_rate_calls_of_a_period_go_at_once():
    pace = FlowPace()
    assert [pace.wait(1, 3, 1.0) for _ in range(3)] == [0.0, 0.0, 0.0]


def test_the_call_after_them_waits_for_the_oldest_to_be_a_period_old():
    pace = FlowPace()
    pace.wait(1, 2, 0.5)
    pace.wait(1, 2, 0.5)
    assert 0.45 < pace.wait(1, 2, 0.5) <= 0.502


def test_a_waiting_call_is_not_counted_until_it_may_go():
    pace = FlowPace()
    pace.wait(1, 1, 0.2)
    pace.wait(1, 1, 0.2)  # told to wait: not counted
    time.sleep(0.21)
    assert pace.wait(1, 1, 0.2) == 0.0


def test_flows_are_paced_apart():
    pace = FlowPace()
    pace.wait(1, 1, 10)
    assert pace.wait(2, 1, 10) == 0.0
