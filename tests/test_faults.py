"""Nothing is lost under faults: an executor killed mid-call, the database cut mid-run."""

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.db import connection

from jobs.models import Job
from tests.processes import ManagedProcess, wait_until
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.django_db(transaction=True)
LOCAL = {"EGRESS_ALLOW": "127.0.0.0/8", "LEASE_MARGIN_SECONDS": "1"}


def executor(tmp_path, name: str, env: dict | None = None) -> ManagedProcess:
    return ManagedProcess(
        ["run_executor", "--worker-id", name, "--poll-interval", "0.3"],
        tmp_path / f"{name}.log",
        env={**LOCAL, **(env or {})},
    )


def test_executor_killed_mid_call_the_job_is_delivered_again(endpoint, make_job, tmp_path):
    job = make_job(endpoint.url("/slow/2"), timeout_seconds=3, max_attempts=3)
    first = executor(tmp_path, "doomed")
    wait_until(lambda: len(endpoint.received) == 1, timeout=20, message="call not made")
    first.kill()
    reconciler = ManagedProcess(
        ["run_reconciler", "--interval", "0.5"], tmp_path / "reconciler.log", env=LOCAL
    )
    second = executor(tmp_path, "rescuer")
    try:
        wait_until(
            lambda: Job.objects.get(id=job.id).status == "succeeded",
            timeout=30,
            message="the job was not delivered again",
        )
    finally:
        assert second.stop() == 0
        assert reconciler.stop() == 0
    stored = Job.objects.get(id=job.id)
    assert stored.attempt == 2 and stored.worker_id == "rescuer"
    keys = [r.headers["Idempotency-Key"] for r in endpoint.received]
    assert keys == [str(job.id), str(job.id)]


def test_database_cut_while_calls_are_in_flight_loses_no_result(endpoint, make_job, tmp_path):
    if connection.vendor != "mysql":
        pytest.fail("this fault test needs MariaDB (DATABASE_URL=mysql://...)")
    db = settings.DATABASES["default"]
    proxy = TcpProxy(db["HOST"], int(db["PORT"] or 3306))
    jobs = [make_job(endpoint.url(f"/slow/1?n={n}"), max_attempts=1) for n in range(20)]
    url = f"mysql://{db['USER']}:{db['PASSWORD']}@127.0.0.1:{proxy.port}/{db['NAME']}"
    process = executor(tmp_path, "through-proxy", env={"DATABASE_URL": url})
    try:
        wait_until(lambda: len(endpoint.received) == 20, timeout=20, message="calls not made")
        proxy.cut()
        wait_until(
            lambda: "unavailable (" in process.log(),
            timeout=20,
            message="the executor did not notice the cut",
        )
        proxy.restore()
        wait_until(
            lambda: Job.objects.filter(id__in=[j.id for j in jobs], status="succeeded").count()
            == 20,
            timeout=40,
            message="results were lost",
        )
    finally:
        assert process.stop() == 0, process.log()
        proxy.close()
    assert len(endpoint.received) == 20
    assert set(
        Job.objects.filter(id__in=[j.id for j in jobs]).values_list("attempt", flat=True)
    ) == {1}


def test_scheduler_waits_out_a_database_cut_and_goes_on(tenant, add_task, tmp_path):
    if connection.vendor != "mysql":
        pytest.fail("this fault test needs MariaDB (DATABASE_URL=mysql://...)")
    db = settings.DATABASES["default"]
    proxy = TcpProxy(db["HOST"], int(db["PORT"] or 3306))
    url = f"mysql://{db['USER']}:{db['PASSWORD']}@127.0.0.1:{proxy.port}/{db['NAME']}"
    process = ManagedProcess(
        ["run_scheduler", "--tick", "0.2", "--lookahead", "0"],
        tmp_path / "scheduler.log",
        env={"DATABASE_URL": url},
    )
    try:
        wait_until(lambda: " tick " in process.log(), timeout=20, message="no tick")
        proxy.cut()
        wait_until(
            lambda: "unavailable (" in process.log(),
            timeout=20,
            message="the scheduler did not notice the cut",
        )
        due = datetime.now(UTC)
        task = add_task(cron=None, run_at=due, next_run_at=due)
        proxy.restore()
        wait_until(
            lambda: Job.objects.filter(task=task).exists(),
            timeout=30,
            message="the scheduler did not come back",
        )
        assert process.popen.poll() is None
    finally:
        assert process.stop() == 0, process.log()
        proxy.close()
