"""No head-of-line blocking: a flow at its limit, with many jobs due, beside a task in no
flow due at the same second, with two real executors: the free task's call starts on
time, while the flow's calls still go one at a time."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.flows.destination import Destination
from tests.flows.flow_processes import executors, flow_of, make_due, queue_jobs
from tests.processes import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def destination():
    server = Destination(delay=0.5)
    yield server
    server.close()


def start_delay_of_the_free_task(
    tenant, destination, tmp_path, limited: int, ahead: float = 0
) -> float:
    """The free task's start delay: its job due a moment after `limited` jobs of a flow
    with a parallelism of 1, all `ahead` seconds from now."""
    flow_of(tenant, parallelism=1)
    full = queue_jobs(tenant, destination.url("/limited"), limited, flow_key="api")
    free = queue_jobs(tenant, destination.url("/free"), 1)
    with executors(tmp_path, 2):
        due = make_due([full], datetime.now(UTC) + timedelta(seconds=ahead))
        # The free job last in the queue's order: due the same second, a moment later.
        make_due([free], due + timedelta(milliseconds=1))
        wait_until(
            lambda: Job.objects.filter(task=free, status="succeeded").exists(),
            timeout=20,
            message="the free task's job did not run",
        )
    job = Job.objects.get(task=free)
    return (job.started_at - job.scheduled_at).total_seconds()


def test_a_free_task_starts_on_time_beside_a_full_flow_with_hundreds_due_now(
    tenant, destination, tmp_path
):
    assert start_delay_of_the_free_task(tenant, destination, tmp_path, 300) < 0.5


def test_a_free_task_starts_on_time_beside_thousands_of_limited_jobs_due_in_its_second(
    tenant, destination, tmp_path
):
    # Due two seconds ahead, as a burst is: the claims park the flow's jobs before it.
    delay = start_delay_of_the_free_task(tenant, destination, tmp_path, 3000, ahead=2)
    assert delay < 0.5
