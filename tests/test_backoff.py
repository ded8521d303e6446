"""The reconnect backoff of every process stays short (campaign scenario 6)."""

from execution.runtime import Backoff


def test_reconnect_backoff_never_waits_more_than_five_seconds():
    backoff = Backoff()
    delays = [backoff.next_delay() for _ in range(40)]
    assert max(delays) <= 5.0
    assert delays[0] <= 0.5
