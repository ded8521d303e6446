"""Fixtures of the executor tests: real endpoints, jobs due now, an executor in a thread."""

from __future__ import annotations

import threading

import pytest

from execution.delivery import Delivery
from execution.executor_process import ExecutorProcess
from jobs.models import Job
from tasks.address_policy import EgressPolicy
from tests.processes import wait_until

LOCAL = EgressPolicy.from_setting("127.0.0.0/8")


class ExecutorThread:
    """An executor process run in a thread of the test, with its own event loop."""

    def __init__(self, **options) -> None:
        options.setdefault("worker_id", "test-executor")
        options.setdefault("poll_interval", 0.2)
        concurrency = options.setdefault("concurrency", 200)
        options.setdefault("delivery", Delivery(policy=LOCAL, concurrency=concurrency))
        self.process = ExecutorProcess(**options)
        self.thread = threading.Thread(target=self.process.run, daemon=True)
        self.thread.start()

    def stop(self, timeout: float = 30) -> None:
        self.process.stop()
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "executor did not stop"


@pytest.fixture
def run_executor():
    started: list[ExecutorThread] = []

    def start(**options) -> ExecutorThread:
        executor = ExecutorThread(**options)
        started.append(executor)
        return executor

    yield start
    for executor in started:
        if executor.thread.is_alive():
            executor.stop()


def job_status(job: Job) -> str:
    return Job.objects.get(id=job.id).status


def wait_for_status(jobs: list[Job], statuses: set[str], timeout: float = 20) -> None:
    ids = [job.id for job in jobs]
    wait_until(
        lambda: Job.objects.filter(id__in=ids, status__in=statuses).count() == len(ids),
        timeout=timeout,
        message=f"jobs did not reach {statuses}",
    )
