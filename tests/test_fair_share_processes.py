"""Fair slots with real processes: a noisy tenant with 20,000 jobs due now beside a quiet
one with 100, one executor, nginx as the endpoint. The quiet tenant is served at once."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.models import ProcessHeartbeat
from jobs.models import Job
from tasks.models import Task
from tests.nginx_endpoint import NginxEndpoint
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
NOISY, QUIET = 20_000, 100
LATER = datetime(2100, 1, 1, tzinfo=UTC)


def queue_jobs(tenant, count: int, url: str) -> None:
    """`count` jobs of one task, not due yet (the test makes them all due at one instant)."""
    task = Task.objects.create(tenant=tenant, url=url, run_at=LATER, status="completed", bucket=0)
    Job.objects.bulk_create(
        (
            Job(
                tenant=tenant,
                task=task,
                scheduled_at=LATER - timedelta(seconds=n),
                next_attempt_at=LATER,
            )
            for n in range(count)
        ),
        batch_size=5000,
    )


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)]


def test_a_quiet_tenant_is_served_within_a_second_while_a_noisy_one_drains(
    tenant, other_tenant, tmp_path
):
    endpoint = NginxEndpoint(tmp_path / "endpoint")
    queue_jobs(tenant, NOISY, endpoint.url("/noisy"))
    queue_jobs(other_tenant, QUIET, endpoint.url("/quiet"))
    executor = ManagedProcess(
        ["run_executor", "--poll-interval", "0.5", "--worker-id", "fair"],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8", "LOG_LEVEL": "WARNING"},
    )
    try:
        # The instant is set once the executor is up: a slow start on a busy machine is not
        # the fairness this test measures.
        wait_until(
            lambda: ProcessHeartbeat.objects.filter(name="executor").exists(),
            timeout=60,
            message="the executor never finished a round",
        )
        due = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=2)
        Job.objects.update(next_attempt_at=due)  # all due at one instant
        wait_until(
            lambda: len(endpoint.arrivals("/quiet")) == QUIET,
            timeout=60,
            interval=0.2,
            message="the quiet tenant's calls did not all arrive",
        )
        quiet = endpoint.arrivals("/quiet")
        noisy_so_far = len(endpoint.arrivals("/noisy"))
        wait_until(
            lambda: len(endpoint.arrivals("/noisy")) >= NOISY,
            timeout=120,
            interval=0.5,
            message="the noisy tenant's calls did not all arrive",
        )
    finally:
        exit_code = executor.stop(timeout=60)
        endpoint.stop()
    assert exit_code == 0, executor.log()
    assert noisy_so_far < NOISY  # the quiet tenant was done while the noisy one drained
    assert p99([arrival - due.timestamp() for arrival in quiet]) < 1.0
