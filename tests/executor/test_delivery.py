"""What an executor sends and what it records, against real endpoints on 127.0.0.1."""

import json
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.fernet import Fernet
from standardwebhooks import Webhook

from jobs.models import Job
from tasks.models import Tenant
from tasks.tenants import tenant_rotate_signing_secret
from tests.executor.conftest import wait_for_status

pytestmark = pytest.mark.django_db(transaction=True)


def test_due_job_is_delivered_once_and_succeeds(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    stored = Job.objects.get(id=job.id)
    assert stored.attempt == 1 and stored.http_status == 200
    assert stored.response_body == "ok" and stored.duration_ms is not None
    assert stored.finished_at is not None and stored.lease_expires_at is None
    assert len(endpoint.requests_for("/ok")) == 1


def test_call_carries_the_idempotency_and_schedule_headers(endpoint, make_job, run_executor):
    scheduled = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    job = make_job(endpoint.url("/ok"), due=scheduled, headers={"X-Trace": "t1"})
    run_executor()
    wait_for_status([job], {"succeeded"})
    headers = endpoint.requests_for("/ok")[0].headers
    assert headers["Idempotency-Key"] == str(job.id)
    assert headers["X-Scheduled-At"] == "2026-01-02T03:04:05.678Z"
    assert headers["X-Attempt"] == "1"
    assert headers["User-Agent"].startswith("at-cron-scheduler/")
    assert headers["X-Trace"] == "t1"


def test_call_uses_the_tasks_method_and_body(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"), method="PUT", body='{"a": 1}')
    run_executor()
    wait_for_status([job], {"succeeded"})
    received = endpoint.requests_for("/ok")[0]
    assert received.method == "PUT"
    assert json.loads(received.body) == {"a": 1}
    assert received.headers["Content-Type"] == "application/json"


def test_signature_verifies_with_the_standard_webhooks_library(
    endpoint, make_job, run_executor, tenant
):
    job = make_job(endpoint.url("/ok"), body='{"hello": "world"}')
    run_executor()
    wait_for_status([job], {"succeeded"})
    received = endpoint.requests_for("/ok")[0]
    headers = {name.lower(): value for name, value in received.headers.items()}
    assert headers["webhook-id"] == str(job.id)
    verified = Webhook(tenant.signing_secret).verify(received.body.decode(), headers)
    assert verified == {"hello": "world"}


def test_signature_made_with_another_secret_does_not_verify(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"), body='{"x": 1}')
    run_executor()
    wait_for_status([job], {"succeeded"})
    received = endpoint.requests_for("/ok")[0]
    headers = {name.lower(): value for name, value in received.headers.items()}
    other = Tenant(name="other").signing_secret
    with pytest.raises(Exception, match="(?i)signature"):
        Webhook(other).verify(received.body.decode(), headers)


def delivered_headers(endpoint, make_job, run_executor) -> tuple[str, dict]:
    job = make_job(endpoint.url("/ok"), body='{"x": 1}')
    run_executor()
    wait_for_status([job], {"succeeded"})
    received = endpoint.requests_for("/ok")[0]
    return received.body.decode(), {k.lower(): v for k, v in received.headers.items()}


def test_after_a_rotation_calls_verify_with_the_new_and_the_old_secret(
    endpoint, make_job, run_executor, tenant
):
    old = tenant.signing_secret
    new = tenant_rotate_signing_secret(actor="tests", tenant=tenant)
    body, headers = delivered_headers(endpoint, make_job, run_executor)
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (new, old):
        assert Webhook(secret).verify(body, headers) == {"x": 1}


def test_a_day_after_a_rotation_the_old_secret_no_longer_signs(
    endpoint, make_job, run_executor, tenant
):
    old = tenant.signing_secret
    tenant_rotate_signing_secret(
        actor="tests", tenant=tenant, now=datetime.now(UTC) - timedelta(hours=25)
    )
    body, headers = delivered_headers(endpoint, make_job, run_executor)
    assert len(headers["webhook-signature"].split(" ")) == 1
    with pytest.raises(Exception, match="(?i)signature"):
        Webhook(old).verify(body, headers)


def test_first_4_kib_of_the_response_body_is_recorded(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/big"))
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert Job.objects.get(id=job.id).response_body == "y" * 4096


def test_redirect_is_a_failure_and_is_not_followed(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/redirect"), max_attempts=1)
    run_executor()
    wait_for_status([job], {"dead"})
    stored = Job.objects.get(id=job.id)
    assert stored.http_status == 302 and stored.error == "HTTP 302"
    assert endpoint.requests_for("/ok") == []


def test_secret_ref_is_sent_as_authorization(endpoint, make_job, run_executor, api):
    api.put(
        "/v1/secrets/crm", {"value": "Bearer s3cret", "allowed_hosts": ["127.0.0.1"]}, format="json"
    )
    job = make_job(endpoint.url("/ok"), secret_ref="crm")
    run_executor()
    wait_for_status([job], {"succeeded"})
    assert endpoint.requests_for("/ok")[0].headers["Authorization"] == "Bearer s3cret"


def test_missing_secret_fails_the_attempt_with_a_clear_error(endpoint, make_job, run_executor):
    job = make_job(endpoint.url("/ok"), secret_ref="nowhere", max_attempts=1)
    run_executor()
    wait_for_status([job], {"dead"})
    assert "nowhere" in Job.objects.get(id=job.id).error
    assert endpoint.requests_for("/ok") == []


def test_a_secret_no_key_decrypts_fails_the_attempt_as_undecryptable(
    endpoint, make_job, run_executor, api, settings
):
    api.put(
        "/v1/secrets/crm", {"value": "Bearer s3cret", "allowed_hosts": ["127.0.0.1"]}, format="json"
    )
    settings.SECRETS_ENCRYPTION_KEYS = [Fernet.generate_key().decode()]  # the old key lost
    job = make_job(endpoint.url("/ok"), secret_ref="crm", max_attempts=1)
    run_executor()
    wait_for_status([job], {"dead"})
    assert "could not be decrypted" in Job.objects.get(id=job.id).error
    assert endpoint.requests_for("/ok") == []


def test_a_job_due_later_fires_on_its_second(endpoint, make_job, run_executor):
    due = datetime.now(UTC) + timedelta(seconds=1.5)
    job = make_job(endpoint.url("/ok"), due=due)
    run_executor(poll_interval=2.0)
    wait_for_status([job], {"succeeded"})
    arrival = endpoint.requests_for("/ok")[0].at
    assert due.timestamp() <= arrival < due.timestamp() + 0.5


def test_slow_and_trickling_endpoints_hit_the_deadline_while_other_calls_flow(
    endpoint, make_job, run_executor
):
    slow = make_job(endpoint.url("/slow/6"), timeout_seconds=2, max_attempts=1)
    trickle = make_job(endpoint.url("/trickle/6"), timeout_seconds=2, max_attempts=1)
    quick = [make_job(endpoint.url(f"/ok?{i}")) for i in range(20)]
    run_executor()
    wait_for_status(quick, {"succeeded"}, timeout=3)  # the slow calls take 6 s
    wait_for_status([slow, trickle], {"dead"}, timeout=10)
    for job in (slow, trickle):
        stored = Job.objects.get(id=job.id)
        assert stored.error == "timed out after 2s"
        assert 1900 <= stored.duration_ms < 3500
