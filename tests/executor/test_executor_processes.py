"""Real executor processes sharing one database hand out disjoint jobs."""

import signal
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
LOCAL = {"EGRESS_ALLOW": "127.0.0.0/8"}


def executor(tmp_path, name: str) -> ManagedProcess:
    return ManagedProcess(
        ["run_executor", "--worker-id", name, "--poll-interval", "0.2", "--concurrency", "200"],
        tmp_path / f"{name}.log",
        env=LOCAL,
    )


def test_four_executors_deliver_each_of_2000_jobs_exactly_once(endpoint, make_job, tmp_path):
    processes = [executor(tmp_path, f"exec-{n}") for n in range(4)]
    for process in processes:  # all four polling before the jobs come due
        wait_until(lambda p=process: "executor claimed=" in p.log(), timeout=30, message="idle")
    due = datetime.now(UTC) + timedelta(seconds=2)
    jobs = [make_job(endpoint.url(f"/ok?n={i}"), due=due) for i in range(2000)]
    try:
        wait_until(
            lambda: Job.objects.filter(status="succeeded").count() == 2000,
            timeout=120,
            message="not every job succeeded",
        )
    finally:
        stop_all(processes)
    keys = Counter(r.headers["Idempotency-Key"] for r in endpoint.requests_for("/ok"))
    assert len(keys) == 2000
    assert set(keys.values()) == {1}
    assert set(keys) == {str(job.id) for job in jobs}
    assert set(Job.objects.values_list("attempt", flat=True)) == {1}
    workers = Counter(Job.objects.values_list("worker_id", flat=True))
    assert len(workers) >= 2, workers


def test_sigterm_stops_an_executor_with_exit_code_zero(tmp_path, db):
    process = executor(tmp_path, "polite")
    wait_until(lambda: "executor" in process.log(), timeout=20, message="no report line")
    assert process.stop(timeout=15) == 0
    assert "executor stopped" in process.log()


def test_a_second_sigterm_ends_a_stopping_executor_at_once(endpoint, make_job, tmp_path):
    make_job(endpoint.url("/slow/20"))
    process = executor(tmp_path, "impatient")
    wait_until(lambda: len(endpoint.received) == 1, timeout=20, message="call not made")
    process.popen.send_signal(signal.SIGTERM)  # graceful: would wait for the 20 s call
    wait_until(lambda: "executor stopping" in process.log(), timeout=5, message="not stopping")
    process.popen.send_signal(signal.SIGTERM)
    assert process.popen.wait(timeout=5) == -signal.SIGTERM
