"""The whole pipeline in real processes: scheduler, executor, reconciler and archiver.

A task runs every minute against an endpoint that fails twice per run, then succeeds; the
API then shows each run succeeded on its third attempt, from the queue and from history.
"""

from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest

from history.models import JobHistory
from jobs.models import Job
from tasks.models import Task
from tests.endpoints import Endpoint
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
ENV = {"EGRESS_ALLOW": "127.0.0.0/8", "ARCHIVE_SUCCEEDED_AFTER_SECONDS": "2"}


def start_pipeline(tmp_path) -> list[ManagedProcess]:
    commands = {
        "scheduler": ["run_scheduler", "--tick", "0.5", "--lookahead", "0"],
        "executor": ["run_executor", "--poll-interval", "0.5"],
        "reconciler": ["run_reconciler", "--interval", "1"],
        "archiver": ["run_archiver", "--interval", "1"],
    }
    return [
        ManagedProcess(args, tmp_path / f"{name}.log", env=ENV) for name, args in commands.items()
    ]


def test_cron_task_with_a_flaky_endpoint_through_every_process(api, settings, tmp_path):
    settings.EGRESS_ALLOW = "127.0.0.0/8"
    endpoint = Endpoint()
    created = api.post(
        "/v1/tasks",
        {
            "name": "flaky",
            "cron": "* * * * *",
            "url": endpoint.url("/fail/2"),
            "backoff_base_seconds": 1,
            "max_attempts": 5,
            "body": '{"ping": 1}',
        },
        format="json",
    ).json()
    first_run = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=2)
    Task.objects.filter(id=created["id"]).update(next_run_at=first_run)
    processes = start_pipeline(tmp_path)
    try:
        wait_until(
            lambda: JobHistory.objects.filter(task_id=created["id"]).count() >= 3,
            timeout=60,
            message="three runs did not reach the history",
        )
    finally:
        for process in processes:
            assert process.stop() == 0, process.log()
        endpoint.close()

    runs = api.get(f"/v1/tasks/{created['id']}/jobs").json()["results"]
    finished = [run for run in runs if run["status"] == "succeeded"]
    expected = [first_run + timedelta(minutes=n) for n in range(3)]
    assert [datetime.fromisoformat(r["scheduled_at"]) for r in finished][-3:] == expected[::-1]
    assert all(run["attempt"] == 3 and run["http_status"] == 200 for run in finished)
    archived = JobHistory.objects.filter(task_id=created["id"]).values_list("id", flat=True)
    for job_id in archived:
        assert not Job.objects.filter(id=job_id).exists()
        assert api.get(f"/v1/jobs/{job_id}").json()["attempt"] == 3

    attempts = defaultdict(list)
    for call in endpoint.requests_for("/fail/2"):
        attempts[call.headers["Idempotency-Key"]].append(call.headers["X-Attempt"])
    for job_id in archived:
        assert attempts[str(job_id)] == ["1", "2", "3"]
