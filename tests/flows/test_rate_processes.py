"""Two real executors share one flow's rate: 16 calls at 4 per second, never more than 4
arriving in any second at the destination, sliding or on the calendar."""

import pytest

from jobs.models import Job
from tests.flows.destination import Destination, most_in_a_calendar_second, most_in_any_window
from tests.flows.flow_processes import executors, flow_of, make_due, queue_jobs, wait_for_statuses

pytestmark = pytest.mark.django_db(transaction=True)
CALLS, RATE = 16, 4


@pytest.fixture
def destination():
    server = Destination()
    yield server
    server.close()


def test_two_executors_start_no_more_calls_in_any_second_than_the_rate(
    tenant, destination, tmp_path
):
    flow_of(tenant, rate=RATE, period_seconds=1)
    task = queue_jobs(tenant, destination.url("/rated"), CALLS, flow_key="api")
    with executors(tmp_path, 2):
        make_due([task])
        wait_for_statuses([task], "succeeded", CALLS, timeout=40)
    arrivals = destination.times()
    assert len(arrivals) == CALLS
    assert most_in_any_window(arrivals, 1.0) <= RATE
    assert most_in_a_calendar_second(arrivals) <= RATE
    assert set(Job.objects.filter(task=task).values_list("attempt", flat=True)) == {1}
