"""A one-off task deleted or paused while a real executor process holds its job (claimed up
to its horizon ahead of the second): the call is not made; a paused one is made after the
resume."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job, JobStatus
from scheduler_site.ids import new_id
from tasks.models import Task
from tasks.services import bucket_for
from tasks.tick import run_tick
from tests.executor.conftest import wait_for_status
from tests.processes import ManagedProcess, stop_all, wait_until

pytestmark = pytest.mark.django_db(transaction=True)  # the executor reads on its own connection
LEAD = timedelta(seconds=4)  # within the executor's horizon (5 s): claimed at once


@pytest.fixture
def executor(tmp_path, db):
    process = ManagedProcess(
        ["run_executor", "--worker-id", "holder", "--poll-interval", "0.2"],
        tmp_path / "executor.log",
        env={"EGRESS_ALLOW": "127.0.0.0/8"},
    )
    wait_until(lambda: "executor claimed=" in process.log(), timeout=30, message="not polling")
    yield process
    stop_all([process])


def one_off_claimed_ahead(tenant, url: str) -> tuple[Task, Job]:
    """A one-off task whose job the tick made and the executor claimed, not yet due."""
    run_at = datetime.now(UTC) + LEAD
    task_id = new_id()
    task = Task.objects.create(
        id=task_id,
        tenant=tenant,
        url=url,
        run_at=run_at,
        next_run_at=run_at,
        bucket=bucket_for(task_id),
    )
    assert run_tick(lookahead_seconds=LEAD.total_seconds() + 1).jobs == 1
    job = Job.objects.get(task_id=task.id)
    wait_for_status([job], {JobStatus.RUNNING}, timeout=LEAD.total_seconds() - 1)
    return task, job


def wait_past(moment: datetime, margin: float = 1.5) -> None:
    time.sleep(max(0.0, (moment - datetime.now(UTC)).total_seconds() + margin))


def test_a_one_off_deleted_while_its_job_is_held_is_not_called(api, tenant, endpoint, executor):
    task, job = one_off_claimed_ahead(tenant, endpoint.url("/ok"))
    assert api.delete(f"/v1/tasks/{task.id}", HTTP_IF_MATCH='"1"').status_code == 204
    wait_for_status([job], {JobStatus.CANCELLED}, timeout=10)
    wait_past(job.scheduled_at)
    assert endpoint.received == []
    assert Job.objects.get(id=job.id).error == "task deleted"


def test_a_one_off_paused_while_its_job_is_held_is_not_called(api, tenant, endpoint, executor):
    task, job = one_off_claimed_ahead(tenant, endpoint.url("/ok"))
    response = api.post(f"/v1/tasks/{task.id}/pause", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.content
    wait_for_status([job], {JobStatus.HELD}, timeout=10)
    wait_past(job.scheduled_at)
    assert endpoint.received == []


def test_a_one_off_paused_while_held_is_called_after_the_resume(api, tenant, endpoint, executor):
    task, job = one_off_claimed_ahead(tenant, endpoint.url("/ok"))
    api.post(f"/v1/tasks/{task.id}/pause", HTTP_IF_MATCH='"1"')
    wait_for_status([job], {JobStatus.HELD}, timeout=10)
    response = api.post(f"/v1/tasks/{task.id}/resume", HTTP_IF_MATCH='"2"')
    assert response.status_code == 200, response.content
    wait_for_status([job], {JobStatus.SUCCEEDED}, timeout=20)
    assert [call.headers["Idempotency-Key"] for call in endpoint.received] == [str(job.id)]
    assert Task.objects.get(id=task.id).status == "completed"
