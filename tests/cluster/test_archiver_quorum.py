"""The archiver (a real process) on 3 nodes with 3 copies, writing at LOCAL_QUORUM: a node
SIGKILLed mid-archive and started again loses nothing, and no job leaves the queue before
a quorum of nodes has its history row."""

import pytest

from tests.history.finished_jobs import make_finished_jobs, queued
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)
JOBS = 1200


@pytest.fixture
def finished_jobs(tenant, add_task) -> set:
    return make_finished_jobs(tenant, add_task(status="completed"), JOBS)


def in_history(store, tenant, ids: set) -> set:
    """The ids a quorum read finds: with a node down, both live nodes must hold the row."""
    found = set()
    for job_id in ids:
        record = store.get(tenant_id=tenant.id, job_id=job_id)
        if record is not None:
            found.add(record.id)
    return found


def start_archiver(tmp_path, env) -> ManagedProcess:
    return ManagedProcess(
        ["run_archiver", "--interval", "0.2", "--batch-size", "40"],
        tmp_path / "archiver.log",
        env=env,
    )


def test_a_node_killed_and_restarted_mid_archive_loses_nothing(
    cluster, cluster_env, quorum_store, tenant, finished_jobs, tmp_path
):
    archiver = start_archiver(tmp_path, cluster_env)
    try:
        wait_until(
            lambda: len(queued(finished_jobs)) < JOBS - 80,
            timeout=60,
            interval=0.05,
            message="the archiver did not start archiving",
        )
        cluster.kill(2)
        left_at_kill = len(queued(finished_jobs))
        wait_until(
            lambda: len(queued(finished_jobs)) < left_at_kill - 160,
            timeout=60,
            interval=0.2,
            message="the archiver did not go on with one node of three down",
        )
        gone = finished_jobs - queued(finished_jobs)
        assert in_history(quorum_store, tenant, gone) == gone  # each one on both live nodes
        cluster.restore()
        wait_until(
            lambda: not queued(finished_jobs),
            timeout=120,
            interval=0.5,
            message="the archiver did not finish once the node was back",
        )
        assert archiver.popen.poll() is None
    finally:
        exit_code = archiver.stop()
    assert exit_code == 0, archiver.log()
    assert in_history(quorum_store, tenant, finished_jobs) == finished_jobs
