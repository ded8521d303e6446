"""A real executor killed (SIGKILL) holding claimed-ahead jobs: the reconciler sees its
heartbeat go stale and hands them back, and another executor delivers each once, well
before their leases (timeout 30 s + LEASE_MARGIN_SECONDS 30 s) would have run out."""

import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
LOCAL = {"EGRESS_ALLOW": "127.0.0.0/8"}
JOBS = 100


def start(tmp_path, name: str, *args: str) -> ManagedProcess:
    return ManagedProcess(list(args), tmp_path / f"{name}.log", env=LOCAL)


def executor(tmp_path, name: str, horizon: float) -> ManagedProcess:
    args = ["run_executor", "--worker-id", name, "--poll-interval", "0.2"]
    return start(tmp_path, name, *args, "--horizon", str(horizon))


def test_a_killed_executors_jobs_are_delivered_by_another_within_seconds(
    endpoint, make_job, tmp_path
):
    # The doomed one claims far ahead, the rescuer only what is due: the jobs go to the first.
    doomed = executor(tmp_path, "doomed", horizon=30)
    others = [
        executor(tmp_path, "rescuer", horizon=0.5),
        start(tmp_path, "reconciler", "run_reconciler", "--interval", "0.5"),
    ]
    try:
        for process, ready in zip(
            [doomed, *others], ["claimed=", "claimed=", "reconcile"], strict=True
        ):
            wait_until(
                lambda p=process, r=ready: r in p.log(),
                timeout=30,
                message=f"{process.log_path.name} did not start",
            )
        due = datetime.now(UTC) + timedelta(seconds=4)
        jobs = [make_job(endpoint.url(f"/ok?n={n}"), due=due) for n in range(JOBS)]
        wait_until(
            lambda: Job.objects.filter(status="running", worker_id="doomed").count() == JOBS,
            timeout=20,
            message="the executor did not claim the jobs ahead",
        )
        doomed.kill()
        killed = time.monotonic()
        wait_until(
            lambda: Job.objects.filter(status="succeeded").count() == JOBS,
            timeout=40,
            message="the killed executor's jobs were not delivered",
        )
        delivered_after = time.monotonic() - killed
    finally:
        stop_all(others)
    assert delivered_after < 20, delivered_after  # their leases: 64 s after the kill
    assert set(Job.objects.values_list("worker_id", flat=True)) == {"rescuer"}
    keys = Counter(r.headers["Idempotency-Key"] for r in endpoint.requests_for("/ok"))
    assert set(keys) == {str(job.id) for job in jobs}
    assert set(keys.values()) == {1}
    assert "handed back 100 jobs of 1 of them" in others[1].log()
