"""Which finished jobs make callbacks (jobs/callbacks/finished.py read by produce.py): the one
read of the jobs with their tasks' and tenants' callback URLs."""

import json
from datetime import UTC, datetime

import pytest
from django.db import transaction

from jobs import queue
from jobs.callbacks.produce import make_callbacks
from jobs.models import Callback, Job, JobAttempt

pytestmark = pytest.mark.django_db(transaction=True)

HOOK = "http://127.0.0.1:9/hook"


def finish(job: Job, status: str, worker_id: str = "w1") -> None:
    Job.objects.filter(id=job.id).update(
        status=status, worker_id=worker_id, attempt=1, http_status=500, error="HTTP 500",
        duration_ms=7, finished_at=datetime.now(UTC), response_body="oops",
    )  # fmt: skip
    JobAttempt.objects.create(job_id=job.id, attempt=1, started_at=datetime.now(UTC),
                              outcome=status)  # fmt: skip


def made(jobs: list[Job], worker_id: str | None = "w1") -> int:
    with transaction.atomic():
        return make_callbacks([str(job.id) for job in jobs], worker_id=worker_id)


def test_a_dead_job_calls_its_tasks_failure_url_with_the_last_attempt(make_job):
    job = make_job(HOOK, on_success_url=f"{HOOK}/ok", on_failure_url=f"{HOOK}/failed")
    finish(job, "dead")
    assert made([job]) == 1
    target = Callback.objects.get(origin_job_id=job.id)
    assert (target.event, target.url, target.task_id) == ("failure", f"{HOOK}/failed", job.task_id)
    body = json.loads(target.body)
    assert (body["status"], body["http_status"], body["error"]) == ("dead", 500, "HTTP 500")
    assert (body["response_body"], body["duration_ms"], body["attempts"]) == ("oops", 7, 1)


def test_a_dead_job_of_a_task_without_a_failure_url_alerts_its_tenant(make_job, tenant):
    tenant.on_failure_url = f"{HOOK}/tenant"
    tenant.save()
    job = make_job(HOOK, on_success_url=f"{HOOK}/ok")
    finish(job, "dead")
    assert made([job]) == 1
    target = Callback.objects.get(origin_job_id=job.id)
    assert (target.event, target.url) == ("alert", f"{HOOK}/tenant")


def test_a_result_another_worker_holds_makes_no_callback(make_job):
    job = make_job(HOOK, on_success_url=f"{HOOK}/ok")
    finish(job, "succeeded", worker_id="w2")
    assert made([job]) == 0 and not Callback.objects.exists()


def test_without_a_worker_every_finished_job_counts_as_the_reconciler_needs(make_job):
    job = make_job(HOOK, on_failure_url=f"{HOOK}/failed")
    finish(job, "dead", worker_id="w2")
    assert made([job], worker_id=None) == 1


def test_a_job_not_finished_makes_no_callback(make_job):
    job = make_job(HOOK, on_success_url=f"{HOOK}/ok", on_failure_url=f"{HOOK}/failed")
    finish(job, "pending")
    assert made([job]) == 0


def test_a_claim_handed_back_unfired_is_not_counted_in_the_attempts(make_job):
    job = make_job(HOOK, max_attempts=1, on_failure_url=f"{HOOK}/failed")
    (first,) = claim("w1")
    assert queue.hand_back(worker_id="w1", jobs=[(first.key, first.attempt, "pending")]) == 1
    (second,) = claim("w1")
    now = datetime.now(UTC)
    died = queue.outcome(second, succeeded=False, now=now, http_status=500, error="HTTP 500",
                         started_at=now)  # fmt: skip
    assert queue.record_results(worker_id="w1", results=[died]) == 1
    (target,) = Callback.objects.filter(origin_job_id=job.id)
    assert json.loads(target.body)["attempts"] == 1  # claimed twice, tried once


def claim(worker: str) -> list:
    batch = queue.claim_jobs(
        worker_id=worker, critical_limit=10, normal_limit=10, lookahead_seconds=0
    )
    return batch.jobs
