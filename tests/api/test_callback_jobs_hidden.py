"""Callback jobs are the service's deliveries to the tenant, not runs: every tenant read and
action of the job API passes them by (the DLQ and a task's job lists name priorities 0-9)."""

import uuid
from datetime import UTC, datetime

import pytest

from jobs.models import Job, JobStatus
from tests.executor.callback_jobs import make_callback

CALLBACK_URL = "https://93.184.216.34/failed"


@pytest.fixture
def run(tenant, make_task):
    task = make_task(cron="* * * * *", on_failure_url=CALLBACK_URL)
    moment = datetime.now(UTC)
    return Job.objects.create(
        tenant=tenant,
        task_id=uuid.UUID(task["id"]),
        scheduled_at=moment,
        next_attempt_at=moment,
        status=JobStatus.DEAD,
        attempt=1,
        finished_at=moment,
    )


def dead_callback(run: Job) -> Job:
    return make_callback(
        run, CALLBACK_URL, status=JobStatus.DEAD, attempt=5, finished_at=datetime.now(UTC)
    )


def result_ids(response) -> list[str]:
    return [item["id"] for item in response.json()["results"]]


def test_a_dead_callback_is_not_in_the_dlq(api, run):
    dead_callback(run)
    assert result_ids(api.get("/v1/dlq")) == [str(run.id)]


def test_a_callback_is_not_among_its_tasks_jobs(api, run):
    dead_callback(run)
    assert result_ids(api.get(f"/v1/tasks/{run.task_id}/jobs")) == [str(run.id)]


@pytest.mark.parametrize(
    "method, route",
    [
        ("get", "/v1/jobs/{job}"),
        ("get", "/v1/jobs/{job}/attempts"),
        ("post", "/v1/jobs/{job}/retry"),
        ("post", "/v1/jobs/{job}/cancel"),
    ],
)
def test_a_callback_is_not_found_by_the_job_routes(api, run, method, route):
    callback = dead_callback(run)
    response = getattr(api, method)(route.format(job=callback.id))
    assert response.status_code == 404, response.content
    assert Job.objects.get(id=callback.id).status == JobStatus.DEAD


def test_a_pending_callback_cannot_be_cancelled_by_the_tenant(api, run):
    callback = make_callback(run, CALLBACK_URL)
    assert api.post(f"/v1/jobs/{callback.id}/cancel").status_code == 404
    assert Job.objects.get(id=callback.id).status == JobStatus.PENDING
