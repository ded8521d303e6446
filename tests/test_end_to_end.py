"""The whole pipeline in real processes: scheduler, executor, reconciler and archiver, once
with the SQL history and once with the history on the real Cassandra node.

A task runs every minute against an endpoint that fails twice per run, then succeeds; a
one-off task fails until it is dead. Both are archived; the API then reads them back from
the history, merged with what is still in the queue.
"""

import uuid
from collections import defaultdict
from datetime import UTC, datetime, timedelta

import pytest

from history.stores import close_history_stores, history_store
from jobs.models import Job
from tasks.models import Task
from tests.endpoints import Endpoint
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
ENV = {
    "EGRESS_ALLOW": "127.0.0.0/8",
    "ARCHIVE_SUCCEEDED_AFTER_SECONDS": "2",
    "ARCHIVE_DEAD_AFTER_SECONDS": "2",
}


@pytest.fixture(params=["sql", "cassandra"])
def history_env(request, settings) -> dict:
    """The history backend of the test's own API calls and of every process it starts."""
    settings.EGRESS_ALLOW = "127.0.0.0/8"
    settings.ARCHIVE_DEAD_AFTER_SECONDS = 2
    if request.param == "sql":
        return dict(ENV, HISTORY_BACKEND="sql")
    store = request.getfixturevalue("cassandra_store")
    hosts, port = request.getfixturevalue("cassandra_node")
    settings.HISTORY_BACKEND = "cassandra"
    settings.CASSANDRA_HOSTS, settings.CASSANDRA_PORT = hosts, port
    settings.CASSANDRA_KEYSPACE = store.keyspace
    request.addfinalizer(close_history_stores)
    return dict(
        ENV,
        HISTORY_BACKEND="cassandra",
        CASSANDRA_HOSTS=",".join(hosts),
        CASSANDRA_PORT=str(port),
        CASSANDRA_KEYSPACE=store.keyspace,
    )


def start_pipeline(tmp_path, env: dict) -> list[ManagedProcess]:
    commands = {
        "scheduler": ["run_scheduler", "--tick", "0.5", "--lookahead", "0"],
        "executor": ["run_executor", "--poll-interval", "0.5"],
        "reconciler": ["run_reconciler", "--interval", "1"],
        "archiver": ["run_archiver", "--interval", "1"],
    }
    return [
        ManagedProcess(args, tmp_path / f"{name}.log", env=env) for name, args in commands.items()
    ]


def archived_runs(tenant, task_id: str) -> list:
    runs = history_store().task_runs(
        tenant_id=tenant.id, task_id=uuid.UUID(task_id), before=None, limit=50
    )
    return [run for run in runs if not Job.objects.filter(id=run.id).exists()]


def test_runs_of_every_kind_are_delivered_archived_and_read_back(
    api, tenant, tmp_path, history_env
):
    endpoint = Endpoint()
    cron = api.post(
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
    one_off = api.post(
        "/v1/tasks",
        {
            "name": "doomed",
            "run_at": datetime.now(UTC).isoformat(),
            "url": endpoint.url("/status/500"),
            "backoff_base_seconds": 1,
            "max_attempts": 2,
        },
        format="json",
    ).json()
    first_run = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=2)
    Task.objects.filter(id=cron["id"]).update(next_run_at=first_run)
    processes = start_pipeline(tmp_path, history_env)
    try:
        wait_until(
            lambda: len(archived_runs(tenant, cron["id"])) >= 3
            and len(archived_runs(tenant, one_off["id"])) == 1,
            timeout=60,
            interval=0.5,
            message="three cron runs and the dead one-off did not reach the history",
        )
    finally:
        exit_codes = [process.stop() for process in processes]
        endpoint.close()
    assert exit_codes == [0] * len(processes), [process.log() for process in processes]

    archived = [run.id for run in archived_runs(tenant, cron["id"])]
    expected = [first_run + timedelta(minutes=n) for n in range(3)]
    # The next run waits in the queue: the task's runs merge it with the archived ones.
    queued = Job.objects.create(
        tenant=tenant,
        task_id=cron["id"],
        scheduled_at=first_run + timedelta(minutes=5),
        next_attempt_at=first_run + timedelta(minutes=5),
    )
    runs = api.get(f"/v1/tasks/{cron['id']}/jobs").json()["results"]
    assert [run["id"] for run in runs][:1] == [str(queued.id)]
    assert runs[0]["status"] == "pending"
    finished = [run for run in runs if run["status"] == "succeeded"]
    assert [datetime.fromisoformat(r["scheduled_at"]) for r in finished][-3:] == expected[::-1]
    assert all(run["attempt"] == 3 and run["http_status"] == 200 for run in finished)
    assert len({run["id"] for run in runs}) == len(runs)
    for job_id in archived:
        assert api.get(f"/v1/jobs/{job_id}").json()["attempt"] == 3

    attempts = defaultdict(list)
    for call in endpoint.requests_for("/fail/2"):
        attempts[call.headers["Idempotency-Key"]].append(call.headers["X-Attempt"])
    for job_id in archived:
        assert attempts[str(job_id)] == ["1", "2", "3"]

    (dead,) = api.get(f"/v1/tasks/{one_off['id']}/jobs").json()["results"]
    assert not Job.objects.filter(id=dead["id"]).exists()
    read = api.get(f"/v1/jobs/{dead['id']}").json()
    assert (read["status"], read["attempt"], read["http_status"]) == ("dead", 2, 500)
