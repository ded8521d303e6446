"""Several flows at their limits at once, with two real executors writing results and
claiming in the same rounds (each locking flows for both): every flow keeps its own
parallelism and every job is called once."""

import pytest

from jobs.models import Job
from tests.flows.destination import Destination
from tests.flows.flow_processes import executors, flow_of, make_due, queue_jobs, wait_for_statuses

pytestmark = pytest.mark.django_db(transaction=True)
FLOWS, CALLS, PARALLELISM = 4, 12, 2


@pytest.fixture
def destination():
    server = Destination(delay=0.3)
    yield server
    server.close()


def test_flows_side_by_side_each_keep_their_parallelism(tenant, destination, tmp_path):
    tasks = []
    for n in range(FLOWS):
        flow_of(tenant, f"api-{n}", parallelism=PARALLELISM)
        tasks.append(queue_jobs(tenant, destination.url(f"/{n}"), CALLS, flow_key=f"api-{n}"))
    with executors(tmp_path, 2):
        make_due(tasks)
        wait_for_statuses(tasks, "succeeded", FLOWS * CALLS, timeout=40)
    assert set(destination.most_by_path.values()) == {PARALLELISM}
    calls = destination.calls_by_job()
    assert len(calls) == FLOWS * CALLS and set(calls.values()) == {1}
    assert set(Job.objects.values_list("attempt", flat=True)) == {1}
