"""`run_all`: the four loops in one process, as the embedded quickstart runs them."""

import signal
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_run_all_delivers_a_one_off_call_and_stops_on_ctrl_c(api, settings, endpoint, tmp_path):
    settings.EGRESS_ALLOW = "127.0.0.0/8"
    run_at = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
    task = api.post(
        "/v1/tasks", {"run_at": run_at, "url": endpoint.url("/ok")}, format="json"
    ).json()
    process = ManagedProcess(
        ["run_all", "--tick", "0.5"], tmp_path / "run_all.log", env={"EGRESS_ALLOW": "127.0.0.0/8"}
    )
    wait_until(
        lambda: Job.objects.filter(task_id=task["id"], status="succeeded").exists(),
        timeout=30,
        message="the call was not delivered",
    )
    process.popen.send_signal(signal.SIGINT)
    assert process.popen.wait(timeout=30) == 0, process.log()
    runs = api.get(f"/v1/tasks/{task['id']}/jobs").json()["results"]
    assert [run["status"] for run in runs] == ["succeeded"]
    assert api.get(f"/v1/tasks/{task['id']}").json()["status"] == "completed"
    assert len(endpoint.requests_for("/ok")) == 1
