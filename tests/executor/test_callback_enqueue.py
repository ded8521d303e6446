"""The set-based insert of callbacks (jobs/callbacks/enqueue.py): what it writes is what the
claim then calls, byte for byte."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

from jobs.callbacks.enqueue import NewCallback, enqueue
from jobs.models import CALLBACK_PRIORITY, Callback, Job
from jobs.queue import claim_jobs
from scheduler_site.ids import new_id

pytestmark = pytest.mark.django_db(transaction=True)

# Quotes, backslashes, new lines, text beyond ASCII and beyond the BMP, and longer than a
# reply's first 4 KiB: what a JSON parameter must carry through unchanged.
AWKWARD = '{"error":"a \\"quoted\\" \\\\ back\\nslash", "text":"Grüße, 東京 🎉"}' + "x" * 6000


def new_callback(tenant, body: str, due: datetime) -> NewCallback:
    return NewCallback(
        tenant_id=tenant.id,
        task_id=new_id(),
        origin_job_id=new_id(),
        event="success",
        url="http://127.0.0.1:9/cb?x=1",
        body=body,
        due_at=due,
    )


def test_enqueued_callbacks_are_jobs_of_the_callback_lane_with_their_targets(tenant, settings):
    due = datetime.now(UTC).replace(microsecond=123456)
    later = due + timedelta(minutes=1)
    made = [new_callback(tenant, AWKWARD, due), new_callback(tenant, "{}", later)]
    with transaction.atomic():
        ids = enqueue(made)
    for job_id, callback in zip(ids, made, strict=True):
        job = Job.objects.get(id=job_id)
        assert (job.priority, job.status, job.attempt) == (CALLBACK_PRIORITY, "pending", 0)
        assert job.task_id == job.id and job.tenant_id == tenant.id
        assert job.scheduled_at == job.next_attempt_at == callback.due_at
        assert job.max_attempts == settings.CALLBACK_MAX_ATTEMPTS
        assert job.timeout_seconds == settings.CALLBACK_TIMEOUT_SECONDS
        assert job.backoff_base_seconds == settings.CALLBACK_BACKOFF_SECONDS
        target = Callback.objects.get(job_id=job_id)
        assert (target.tenant_id, target.task_id) == (tenant.id, callback.task_id)
        assert (target.origin_job_id, target.event) == (callback.origin_job_id, "success")
        assert (target.url, target.body) == (callback.url, callback.body)


def test_an_enqueued_callback_is_claimed_with_its_url_and_body(tenant):
    [job_id] = enqueue([new_callback(tenant, AWKWARD, datetime.now(UTC))])
    batch = claim_jobs(worker_id="w1", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    [claimed] = batch.jobs
    assert claimed.id == str(job_id) and claimed.priority == CALLBACK_PRIORITY
    assert (claimed.method, claimed.url, claimed.body) == (
        "POST",
        "http://127.0.0.1:9/cb?x=1",
        AWKWARD,
    )
