"""A failing destination with two real executors: the circuit opens after the flow's
breaker_failures, no call leaves while it is open, one probe goes after the cooldown (its
failure re-opens the circuit for twice as long, its success closes it), and the jobs that
waited are charged only for the calls they made."""

from datetime import datetime

import pytest

from flows.models import CircuitState, Flow
from jobs.models import Job
from tests.flows.destination import Destination
from tests.flows.flow_processes import executors, flow_of, make_due, queue_jobs, wait_for_statuses
from tests.processes import free_port, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
FAILURES, COOLDOWN = 3, 1


class CircuitWatch:
    """The flow's circuit as the test sees it between polls: each opening (opened_at,
    retry_at) once, in order."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow
        self.openings: list[tuple[datetime, datetime]] = []

    def look(self) -> Flow:
        self.flow.refresh_from_db()
        opening = (self.flow.opened_at, self.flow.retry_at)
        if self.flow.opened_at is not None and opening not in self.openings:
            self.openings.append(opening)
        return self.flow

    def wait(self, what, message: str, timeout: float = 20) -> None:
        wait_until(lambda: what(self.look()), timeout=timeout, interval=0.05, message=message)


def arrivals_between(destination: Destination, start: datetime, end: datetime) -> int:
    return sum(start.timestamp() <= at < end.timestamp() for at in destination.times())


@pytest.fixture
def destination():
    server = Destination(status=500)
    yield server
    server.close()


def test_the_circuit_opens_probes_reopens_and_closes(tenant, destination, tmp_path):
    watch = CircuitWatch(
        flow_of(tenant, breaker_failures=FAILURES, breaker_cooldown_seconds=COOLDOWN)
    )
    first = queue_jobs(
        tenant, destination.url("/a"), FAILURES, flow_key="api", backoff_base_seconds=1
    )
    later = queue_jobs(tenant, destination.url("/b"), 5, flow_key="api", backoff_base_seconds=1)
    with executors(tmp_path, 2):
        make_due([first])
        watch.wait(lambda f: f.circuit_state == CircuitState.OPEN, "the circuit did not open")
        make_due([later])  # due while it is open: they wait
        watch.wait(lambda f: f.reopens == 1, "the failed probe did not re-open it")
        destination.status = 200
        watch.wait(lambda f: f.circuit_state == CircuitState.CLOSED, "the probe did not close it")
        wait_for_statuses([first, later], "succeeded", FAILURES + 5, timeout=20)
    (opened, retry), (reopened, retry_again) = watch.openings
    assert arrivals_between(destination, datetime.min.replace(tzinfo=opened.tzinfo), opened) == 3
    assert arrivals_between(destination, opened, retry) == 0
    assert arrivals_between(destination, retry, reopened) == 1  # the probe
    assert (retry - opened).total_seconds() == COOLDOWN
    assert (retry_again - reopened).total_seconds() == 2 * COOLDOWN
    assert arrivals_between(destination, reopened, retry_again) == 0
    calls = destination.calls_by_job()
    for job in Job.objects.filter(task__in=[first, later]):
        assert job.attempt == calls[str(job.id)], job


def test_a_closed_port_opens_the_circuit_and_the_jobs_that_wait_are_not_charged(tenant, tmp_path):
    watch = CircuitWatch(
        flow_of(tenant, breaker_failures=FAILURES, breaker_cooldown_seconds=COOLDOWN)
    )
    closed = f"http://127.0.0.1:{free_port()}/closed"  # nothing listens: refused
    first = queue_jobs(tenant, closed, FAILURES, flow_key="api", backoff_base_seconds=1)
    later = queue_jobs(tenant, closed, 5, flow_key="api", backoff_base_seconds=1)
    with executors(tmp_path, 2):
        make_due([first])
        watch.wait(lambda f: f.circuit_state == CircuitState.OPEN, "the circuit did not open")
        assert watch.flow.failures == FAILURES
        make_due([later])
        watch.wait(lambda f: f.reopens == 1, "the failed probe did not re-open it")
        # Three calls that opened it and one probe: the jobs that waited paid nothing.
        attempts = Job.objects.filter(task__in=[first, later]).values_list("attempt", flat=True)
        assert sum(attempts) == FAILURES + 1
