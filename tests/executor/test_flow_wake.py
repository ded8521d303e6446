"""A real executor polling only every 5 s claims again when a rate-limited flow's window
reopens: the second window's calls start within a small margin of the first one's end."""

import pytest
from django.conf import settings

from jobs.models import JobStatus
from tests.executor.conftest import wait_for_status
from tests.executor.flow_helpers import flow_of

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection
RATE = 2
MARGIN = 0.7  # seconds past the window's end the second window's first call may start


def second_window_lag(endpoint) -> float:
    """Seconds from the first call to the first call of the second window."""
    times = sorted(call.at for call in endpoint.received)
    return times[RATE] - times[0]


def window() -> float:
    return 1 + settings.FLOW_RATE_GUARD_SECONDS


# The promise is `rate` starts in any second; the guard's extra 0.1 s is measured at the
# claim, and a busy machine may deliver the first window's call later than it started.
PERIOD = 1.0


def test_the_second_window_starts_when_the_first_ends(tenant, make_job, endpoint, run_executor):
    flow_of(tenant, rate=RATE, period_seconds=1)
    jobs = [make_job(endpoint.url("/ok"), flow_key="api") for _ in range(2 * RATE)]
    run_executor(poll_interval=5)
    wait_for_status(jobs, {JobStatus.SUCCEEDED}, timeout=20)
    lag = second_window_lag(endpoint)
    assert PERIOD <= lag < window() + MARGIN, lag


def test_the_second_window_starts_while_the_firsts_calls_are_out(
    tenant, make_job, endpoint, run_executor
):
    """No call ends before the window does: only the claim's own wake time brings it."""
    flow_of(tenant, rate=RATE, period_seconds=1)
    jobs = [make_job(endpoint.url("/slow/3"), flow_key="api") for _ in range(2 * RATE)]
    run_executor(poll_interval=5)
    wait_for_status(jobs, {JobStatus.SUCCEEDED}, timeout=30)
    lag = second_window_lag(endpoint)
    assert PERIOD <= lag < window() + MARGIN, lag
