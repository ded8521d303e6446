"""The archiver process and a Cassandra node that stops in the middle of an archive.

The node is reached through a TCP proxy that the test cuts: the archiver waits it out, the
jobs it could not archive stay in the queue, and once the node is back every job ends up in
the history and nowhere else.
"""

import pytest

from jobs.models import Job
from tests.history.finished_jobs import make_finished_jobs, queued
from tests.processes import ManagedProcess, wait_until
from tests.tcp_proxy import TcpProxy

pytestmark = pytest.mark.django_db(transaction=True)
JOBS = 2000


@pytest.fixture
def finished_jobs(tenant, add_task) -> set:
    return make_finished_jobs(tenant, add_task(status="completed"), JOBS)


def test_a_node_stopping_mid_archive_is_waited_out_and_no_job_is_lost(
    tenant, finished_jobs, cassandra_node, cassandra_store, tmp_path
):
    task_id = Job.objects.filter(id__in=finished_jobs).values_list("task_id", flat=True)[0]
    proxy = TcpProxy(cassandra_node[0][0], cassandra_node[1])
    archiver = ManagedProcess(
        ["run_archiver", "--interval", "0.2", "--batch-size", "25"],
        tmp_path / "archiver.log",
        env={
            "HISTORY_BACKEND": "cassandra",
            "CASSANDRA_HOSTS": "127.0.0.1",
            "CASSANDRA_PORT": str(proxy.port),
            "CASSANDRA_KEYSPACE": cassandra_store.keyspace,
        },
    )
    try:
        wait_until(
            lambda: len(queued(finished_jobs)) < JOBS,
            timeout=30,
            interval=0.05,
            message="the archiver did not start archiving",
        )
        proxy.cut()
        wait_until(
            lambda: archiver.log().count("unavailable (") >= 2,
            timeout=30,
            message="the archiver did not notice, then retry, the stopped node",
        )
        waiting = queued(finished_jobs)
        assert 0 < len(waiting) < JOBS  # stopped mid-archive
        runs = cassandra_store.task_runs(
            tenant_id=tenant.id, task_id=task_id, before=None, limit=JOBS + 1
        )
        assert waiting | {run.id for run in runs} == finished_jobs  # each job in a store
        proxy.restore()
        wait_until(
            lambda: not queued(finished_jobs),
            timeout=60,
            interval=0.5,
            message="the archiver did not resume once the node was back",
        )
        assert archiver.popen.poll() is None
    finally:
        exit_code = archiver.stop()
        proxy.close()
    assert exit_code == 0, archiver.log()
    runs = cassandra_store.task_runs(
        tenant_id=tenant.id, task_id=task_id, before=None, limit=JOBS + 1
    )
    assert {run.id for run in runs} == finished_jobs
