"""Two real executors share one flow's parallelism: 12 calls of a second each, never more
than 2 in flight at the destination, each job called once and charged one attempt."""

import pytest

from jobs.models import Job
from tests.flows.destination import Destination
from tests.flows.flow_processes import executors, flow_of, make_due, queue_jobs, wait_for_statuses

pytestmark = pytest.mark.django_db(transaction=True)
CALLS = 12


@pytest.fixture
def slow_destination():
    destination = Destination(delay=1.0)
    yield destination
    destination.close()


def test_two_executors_never_have_more_calls_out_than_the_parallelism(
    tenant, slow_destination, tmp_path
):
    flow_of(tenant, parallelism=2)
    task = queue_jobs(tenant, slow_destination.url("/slow"), CALLS, flow_key="api")
    with executors(tmp_path, 2):
        make_due([task])
        wait_for_statuses([task], "succeeded", CALLS, timeout=40)
    assert slow_destination.most_in_flight == 2
    calls = slow_destination.calls_by_job()
    assert len(calls) == CALLS and set(calls.values()) == {1}
    jobs = Job.objects.filter(task=task)
    assert set(jobs.values_list("attempt", flat=True)) == {1}
    # The jobs that waited for the flow show it in their start delay, as any wait does.
    delays = sorted((job.started_at - job.scheduled_at).total_seconds() for job in jobs)
    assert delays[-1] >= (CALLS / 2 - 1) * 0.9
