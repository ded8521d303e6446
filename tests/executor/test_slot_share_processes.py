"""A real executor with 4 call slots: one tenant's backlog of slow calls does not hold
another tenant's call past its second."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
SLOW = 4  # seconds each call of the backlog takes


def test_another_tenants_call_goes_out_on_its_second_beside_a_slow_backlog(
    endpoint, make_job, other_tenant, tmp_path
):
    executor = ManagedProcess(
        ["run_executor", "--worker-id", "slots", "--poll-interval", "0.2", "--concurrency", "4"]
        + ["--grace", "0"],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8"},
    )
    try:
        wait_until(lambda: "executor claimed=" in executor.log(), timeout=30, message="idle")
        due = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=3)
        for n in range(8):
            make_job(endpoint.url(f"/slow/{SLOW}?a={n}"), due=due)
        later = due + timedelta(seconds=1)
        make_job(endpoint.url("/ok?b"), task_tenant=other_tenant, due=later)
        wait_until(
            lambda: endpoint.requests_for("/ok"),
            timeout=SLOW * 4,
            message="the other tenant's call was not made",
        )
    finally:
        exit_code = executor.stop(timeout=30)
    assert exit_code == 0, executor.log()
    assert endpoint.requests_for("/ok")[0].at - later.timestamp() < 1.0
