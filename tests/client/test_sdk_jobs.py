"""The SDK's jobs, attempts and dead letter queue against a real API."""

from datetime import UTC, datetime, timedelta

import pytest
from atcron import ApiError, Attempt, Job

from jobs.models import Job as JobRow
from jobs.models import JobAttempt
from tests.conftest import PUBLIC_URL

pytestmark = pytest.mark.django_db(transaction=True)
AT = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def dead_jobs(sdk, tenant):
    """Two dead runs of one task and one of another, each with its two failed calls."""
    tasks = [
        sdk.tasks.create({"name": name, "cron": "0 3 * * *", "url": PUBLIC_URL}).id
        for name in ("billing", "crm")
    ]
    made = []
    for n, task_id in enumerate([tasks[0], tasks[0], tasks[1]]):
        row = JobRow.objects.create(
            tenant=tenant,
            task_id=task_id,
            scheduled_at=AT + timedelta(minutes=n),
            next_attempt_at=AT,
            status="dead",
            attempt=2,
            max_attempts=2,
            http_status=503,
            error="HTTP 503",
        )
        for attempt in (1, 2):
            JobAttempt.objects.create(
                job_id=row.id,
                attempt=attempt,
                started_at=AT + timedelta(seconds=attempt),
                http_status=503,
                error="HTTP 503",
                outcome="dead" if attempt == 2 else "retry",
            )
        made.append(str(row.id))
    return tasks, made


def test_a_job_reads_typed(sdk, dead_jobs):
    job = sdk.jobs.get(dead_jobs[1][0])
    assert isinstance(job, Job) and job.status == "dead" and job.http_status == 503
    assert job.scheduled_at == AT


def test_the_attempts_of_a_job_come_first_first(sdk, dead_jobs):
    attempts = sdk.jobs.attempts(dead_jobs[1][0])
    assert all(isinstance(attempt, Attempt) for attempt in attempts)
    assert [(a.attempt, a.outcome) for a in attempts] == [(1, "retry"), (2, "dead")]


def test_the_dlq_lists_every_dead_job_across_pages(sdk, dead_jobs):
    assert {job.id for job in sdk.dlq.list(page_size=1)} == set(dead_jobs[1])


def test_the_dlq_filters_by_task(sdk, dead_jobs):
    tasks, jobs = dead_jobs
    assert {job.id for job in sdk.dlq.list(task_id=tasks[1])} == {jobs[2]}


def test_a_retried_dead_job_is_pending_again_with_its_id(sdk, dead_jobs):
    retried = sdk.dlq.retry(dead_jobs[1][0])
    assert retried.id == dead_jobs[1][0] and retried.status == "pending"
    assert dead_jobs[1][0] not in {job.id for job in sdk.dlq.list()}


def test_every_dead_job_of_a_task_is_retried_at_once(sdk, dead_jobs):
    tasks, jobs = dead_jobs
    result = sdk.dlq.retry_all({"task_id": tasks[0]})
    assert (result.count, result.refused) == (2, {})
    assert [job.id for job in sdk.dlq.list()] == [jobs[2]]


def test_a_discarded_dead_job_is_cancelled(sdk, dead_jobs):
    discarded = sdk.dlq.discard(dead_jobs[1][0])
    assert discarded.status == "cancelled"
    assert sdk.jobs.get(dead_jobs[1][0]).status == "cancelled"


def test_retrying_a_job_that_is_not_dead_is_a_409(sdk, dead_jobs):
    sdk.dlq.retry(dead_jobs[1][0])
    with pytest.raises(ApiError) as refused:
        sdk.dlq.retry(dead_jobs[1][0])
    assert refused.value.status == 409
