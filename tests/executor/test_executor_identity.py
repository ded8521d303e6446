"""An executor's default name (execution/identity.py): the reconciler hands back the jobs
of a name whose heartbeat went stale, so a restarted executor must not take the name of
the one before it, even in a container (the same hostname, pid 1 at every start)."""

from execution.identity import executor_worker_id


def test_two_starts_on_the_same_host_with_the_same_pid_get_different_names():
    # Two calls in one process: the hostname and the pid of a container restarted in its pod.
    assert executor_worker_id() != executor_worker_id()


def test_the_name_fits_the_columns_it_is_stored_in():
    assert len(executor_worker_id()) <= 100  # jobs.worker_id, process_heartbeats.instance_id
