"""The breaker on history reads, on a clock the test moves."""

import pytest

from history.breaker import Breaker
from history.records import HistoryUnavailable


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def failing() -> None:
    raise HistoryUnavailable("hung")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def tripped(clock) -> Breaker:
    breaker = Breaker(10, clock=clock)
    with pytest.raises(HistoryUnavailable):
        breaker.call(failing)
    return breaker


def test_a_failed_read_says_when_to_try_again(clock):
    with pytest.raises(HistoryUnavailable) as failed:
        Breaker(10, clock=clock).call(failing)
    assert failed.value.retry_after == 10


def test_while_open_a_read_is_refused_without_asking_the_store(tripped, clock):
    asked = []
    clock.now += 4
    with pytest.raises(HistoryUnavailable) as refused:
        tripped.call(lambda: asked.append(1))
    assert asked == []
    assert refused.value.retry_after == pytest.approx(6)


def test_after_the_open_time_one_read_is_tried_and_closes_it(tripped, clock):
    clock.now += 10
    assert tripped.call(lambda: "row") == "row"
    assert tripped.call(lambda: "next") == "next"


def test_a_failed_trial_opens_it_again_for_the_whole_time(tripped, clock):
    clock.now += 10
    with pytest.raises(HistoryUnavailable):
        tripped.call(failing)
    clock.now += 9
    with pytest.raises(HistoryUnavailable, match="not asked again"):
        tripped.call(lambda: "row")


def test_only_one_trial_runs_at_a_time(tripped, clock):
    clock.now += 10
    refused = []

    def trial() -> str:
        with pytest.raises(HistoryUnavailable) as second:
            tripped.call(lambda: "second")
        refused.append(second.value)
        return "first"

    assert tripped.call(trial) == "first"
    assert len(refused) == 1


def test_an_error_of_the_read_itself_leaves_the_breaker_closed(clock):
    breaker = Breaker(10, clock=clock)
    with pytest.raises(ValueError):
        breaker.call(lambda: int("x"))
    assert breaker.call(lambda: "row") == "row"
