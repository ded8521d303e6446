"""A job the executor hands back `held` (it read its task paused) goes back `pending` when
the task was resumed before the hand-back was written: the resume released the held jobs
before this one was one of them."""

from datetime import UTC, datetime

from jobs import queue
from jobs.models import Job, JobStatus
from scheduler_site.sqltools import uuid_param
from tasks.models import Task
from tests.executor.callback_jobs import make_callback


def claimed_by(job: Job, worker_id: str) -> Job:
    Job.objects.filter(id=job.id).update(status=JobStatus.RUNNING, worker_id=worker_id, attempt=1)
    return Job.objects.get(id=job.id)


def hand_back_held(job: Job, worker_id: str) -> None:
    hand_back = (uuid_param(job.id), job.attempt, JobStatus.HELD)
    queue.hand_back(worker_id=worker_id, jobs=[hand_back])


def test_a_held_hand_back_of_a_resumed_task_goes_back_pending(make_job):
    job = claimed_by(make_job("http://127.0.0.1:9/ok", due=datetime.now(UTC)), "w")
    Task.objects.filter(id=job.task_id).update(status="active")  # resumed since the read
    hand_back_held(job, "w")
    assert Job.objects.get(id=job.id).status == JobStatus.PENDING


def test_a_held_hand_back_of_a_paused_task_stays_held(make_job):
    job = claimed_by(make_job("http://127.0.0.1:9/ok", due=datetime.now(UTC)), "w")
    Task.objects.filter(id=job.task_id).update(status="paused")
    hand_back_held(job, "w")
    assert Job.objects.get(id=job.id).status == JobStatus.HELD


def test_a_callback_handed_back_goes_back_pending_though_it_has_no_task(make_job):
    callback = make_callback(make_job("http://127.0.0.1:9/ok"), "http://127.0.0.1:9/cb")
    job = claimed_by(callback, "w")
    queue.hand_back(worker_id="w", jobs=[(uuid_param(job.id), job.attempt, JobStatus.PENDING)])
    assert Job.objects.get(id=job.id).status == JobStatus.PENDING


def test_a_callback_handed_back_held_goes_back_pending(make_job):
    job = claimed_by(make_callback(make_job("http://127.0.0.1:9/ok"), "http://127.0.0.1:9/cb"), "w")
    hand_back_held(job, "w")
    assert Job.objects.get(id=job.id).status == JobStatus.PENDING
