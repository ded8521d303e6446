"""A Cassandra that cannot be reached is not connected to again on every request: the
failure is remembered for a backoff (the real driver, a real port that refuses)."""

import time

import pytest

from history.records import HistoryUnavailable
from history.stores import history_store
from tests.processes import wait_until


def test_a_failed_connect_is_remembered_for_the_backoff(unreachable_cassandra):
    with pytest.raises(HistoryUnavailable):
        history_store()
    tried = unreachable_cassandra.accepted
    assert tried > 0
    started = time.monotonic()
    for _ in range(20):
        with pytest.raises(HistoryUnavailable, match="not tried again") as refused:
            history_store()
    assert time.monotonic() - started < 0.1
    assert unreachable_cassandra.accepted == tried
    assert 0 < refused.value.retry_after <= 1


def test_after_the_backoff_the_connect_is_tried_again(unreachable_cassandra):
    with pytest.raises(HistoryUnavailable):
        history_store()
    unreachable_cassandra.restore()
    wait_until(_connects, timeout=20, interval=0.2, message="never connected again")


def _connects() -> bool:
    try:
        history_store()
    except HistoryUnavailable:
        return False
    return True
