"""A death by lease expiry: its failure callback reports the attempt that expired."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Callback, JobStatus
from jobs.queue import reconcile_expired_leases

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC = "https://93.184.216.34"


def test_a_death_by_lease_expiry_reports_no_reply_of_the_attempt_before(make_job):
    lapsed = datetime.now(UTC) - timedelta(minutes=1)
    # attempt 1 got a 500 after 123 ms; attempt 2, the last, was never heard of again
    job = make_job(f"{PUBLIC}/hook", status=JobStatus.RUNNING, attempt=2, max_attempts=2,
                   worker_id="gone", lease_expires_at=lapsed, http_status=500,
                   error="HTTP 500", response_body="boom from attempt 1", duration_ms=123,
                   on_failure_url=f"{PUBLIC}/cb")  # fmt: skip
    assert reconcile_expired_leases() == 1
    (callback,) = Callback.objects.filter(origin_job_id=job.id)
    body = json.loads(callback.body)
    assert body["error"] == "lease expired"
    assert (body["http_status"], body["duration_ms"], body["response_body"]) == (None, None, None)
