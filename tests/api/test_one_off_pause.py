"""A one-off task whose run was made can still be paused while that job waits (its first
call ahead, or a retry), and resumed: the pause holds the job, the resume lets it run."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job, JobStatus
from tasks.models import Task, TaskStatus
from tasks.tick import run_tick


def one_off_with_its_job(api) -> tuple[dict, Job]:
    """A one-off task after the tick made its job: the task is complete, the job waits."""
    run_at = datetime.now(UTC) + timedelta(seconds=2)
    body = {"run_at": run_at.isoformat(), "url": "https://93.184.216.34/hook"}
    task = api.post("/v1/tasks", body, format="json").json()
    assert run_tick(lookahead_seconds=5).jobs == 1
    assert Task.objects.get(id=task["id"]).status == TaskStatus.COMPLETED
    return task, Job.objects.get(task_id=task["id"])


def waiting_for_a_retry(job: Job) -> None:
    """As the executor leaves a job whose first call failed: pending, an hour away."""
    Job.objects.filter(id=job.id).update(
        attempt=1, next_attempt_at=datetime.now(UTC) + timedelta(hours=1), http_status=500
    )


def test_a_one_off_whose_job_waits_for_a_retry_can_be_paused(api):
    task, job = one_off_with_its_job(api)
    waiting_for_a_retry(job)
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "paused"
    assert Job.objects.get(id=job.id).status == JobStatus.HELD


def test_a_paused_one_off_resumes_complete_with_its_retry_waiting_again(api):
    task, job = one_off_with_its_job(api)
    waiting_for_a_retry(job)
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    response = api.post(f"/v1/tasks/{task['id']}/resume", HTTP_IF_MATCH='"2"')
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "completed"
    assert response.json()["next_run_at"] is None
    assert Job.objects.get(id=job.id).status == JobStatus.PENDING
    assert run_tick(lookahead_seconds=5).jobs == 0  # its one run is not made twice


def test_a_one_off_whose_job_is_claimed_can_be_paused(api):
    task, job = one_off_with_its_job(api)
    Job.objects.filter(id=job.id).update(status=JobStatus.RUNNING, worker_id="w", attempt=1)
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.content


def test_a_one_off_whose_job_is_done_cannot_be_paused(api):
    task, job = one_off_with_its_job(api)
    Job.objects.filter(id=job.id).update(status=JobStatus.SUCCEEDED, attempt=1)
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "invalid_state"
