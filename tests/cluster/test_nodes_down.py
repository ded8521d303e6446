"""History reads (real gunicorn) and the archiver (a real process) on 3 nodes with 3
copies at LOCAL_QUORUM: one node down, every read answers in full; two down, the archiver
waits with the queue keeping its jobs and resumes by itself once the nodes are back, and
reads answer 503 in the API's error shape, never a partial page."""

from datetime import UTC, datetime, timedelta

import pytest
import requests

from history.records import HistoryRecord
from scheduler_site.ids import new_id
from tasks.auth import issue_token
from tests.cluster.test_archiver_quorum import start_archiver
from tests.history.finished_jobs import make_finished_jobs, queued
from tests.processes import ApiServer, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
RUNS = 30


@pytest.fixture
def archived_task(tenant, add_task, quorum_store):
    """A task whose RUNS runs are all in the history (none in the queue)."""
    task = add_task(status="completed")
    now = datetime.now(UTC).replace(microsecond=0)
    quorum_store.write(
        [
            HistoryRecord(
                id=new_id(),
                tenant_id=tenant.id,
                task_id=task.id,
                scheduled_at=now - timedelta(minutes=n),
                status="succeeded",
                attempt=1,
                max_attempts=3,
                priority=5,
            )
            for n in range(RUNS)
        ]
    )
    return task


@pytest.fixture
def api(cluster_env, tmp_path):
    env = cluster_env | {"HISTORY_BREAKER_SECONDS": "1", "HISTORY_READ_TIMEOUT_SECONDS": "2"}
    server = ApiServer(tmp_path / "api.log", workers=1, env=env)
    yield server
    server.stop()


def task_runs(server: ApiServer, tenant, task) -> requests.Response:
    headers = {"Authorization": f"Bearer {issue_token(tenant)}"}
    url = server.url(f"/v1/tasks/{task.id}/jobs?limit=100")
    return requests.get(url, headers=headers, timeout=30)


def whole_page(server, tenant, task) -> bool:
    response = task_runs(server, tenant, task)
    return response.status_code == 200 and len(response.json()["results"]) == RUNS


def test_history_reads_answer_in_full_with_one_node_down(cluster, api, tenant, archived_task):
    assert whole_page(api, tenant, archived_task)
    cluster.kill(3)
    # Until the live nodes' failure detector convicts the killed one (seconds), a read they
    # coordinate may still wait on it and run out its timeout (503); from then on every
    # read answers in full.
    wait_until(
        lambda: cluster.seen_down(3),
        timeout=60,
        interval=1,
        message="node 1 never saw node 3 down",
    )
    wait_until(
        lambda: whole_page(api, tenant, archived_task),
        timeout=15,
        interval=0.2,
        message="history reads did not answer with one node of three down",
    )
    for _ in range(10):  # every read, not just one that happened to reach the live nodes
        response = task_runs(api, tenant, archived_task)
        assert response.status_code == 200, response.text
        assert len(response.json()["results"]) == RUNS


def test_with_two_nodes_down_reads_answer_503(cluster, api, tenant, archived_task):
    assert whole_page(api, tenant, archived_task)
    cluster.kill(3)
    cluster.kill(2)
    for _ in range(5):
        response = task_runs(api, tenant, archived_task)
        assert response.status_code == 503, response.text
        assert response.json()["error"]["code"] == "unavailable"
        assert int(response.headers["Retry-After"]) >= 1
    cluster.restore()
    wait_until(
        lambda: whole_page(api, tenant, archived_task),
        timeout=60,
        interval=0.5,
        message="history reads did not answer again once the nodes were back",
    )


@pytest.fixture
def finished_jobs(tenant, add_task) -> set:
    return make_finished_jobs(tenant, add_task(status="completed"), 200)


def test_with_two_nodes_down_the_archiver_waits_and_resumes_by_itself(
    cluster, cluster_env, finished_jobs, tmp_path
):
    cluster.kill(3)
    cluster.kill(2)
    archiver = start_archiver(tmp_path, cluster_env)
    try:
        wait_until(
            lambda: archiver.log().count("unavailable (") >= 3,
            timeout=90,
            message="the archiver did not wait out the missing quorum, trying again",
        )
        assert queued(finished_jobs) == finished_jobs  # nothing left the queue
        assert archiver.popen.poll() is None  # waiting, not exiting to be restarted
        cluster.restore()
        wait_until(
            lambda: not queued(finished_jobs),
            timeout=120,
            interval=0.5,
            message="the archiver did not resume once the nodes were back",
        )
    finally:
        exit_code = archiver.stop()
    assert exit_code == 0, archiver.log()
