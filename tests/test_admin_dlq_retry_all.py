""" "Retry all matching" runs in the background: the request records it and answers at once,
the reconciler retries the jobs in set-based batches, one operation at a time, and the dead
letter queue's page shows its progress, then one summary."""

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from jobs.models import Job, RetryAllItem, RetryAllOperation
from jobs.retry_all import retry_all_step
from tests.processes import ManagedProcess, stop_all, wait_until

RETRY_ALL = "/admin/jobs/deadletter/retry-matching/"
DLQ = "/admin/jobs/deadletter/"


@pytest.fixture
def operator_client(client, db):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    return client


@pytest.fixture
def make_dead(tenant, add_task):
    """`count` dead jobs of one task (of `owner`, the tenant by default)."""

    def make(count: int, *, owner=None, **task_fields) -> list[Job]:
        task = add_task(tenant=owner or tenant, max_attempts=3, **task_fields)
        now = datetime.now(UTC)
        jobs = [
            Job(
                tenant=owner or tenant,
                task=task,
                scheduled_at=now - timedelta(seconds=n),
                next_attempt_at=now,
                status="dead",
                attempt=5,
                max_attempts=5,
                error="HTTP 503",
                finished_at=now,
            )
            for n in range(count)
        ]
        return Job.objects.bulk_create(jobs, batch_size=1000)

    return make


def statuses() -> dict[str, int]:
    counts: dict[str, int] = {}
    for status in Job.objects.values_list("status", flat=True):
        counts[status] = counts.get(status, 0) + 1
    return counts


def run_to_the_end(batch_size: int = 500) -> int:
    turns = 1
    while retry_all_step(batch_size=batch_size):
        turns += 1
    return turns


def test_a_retry_all_of_5000_jobs_answers_at_once(operator_client, make_dead):
    make_dead(5000)
    started = time.monotonic()
    response = operator_client.post(RETRY_ALL)
    elapsed = time.monotonic() - started
    assert response.status_code == 302
    assert elapsed < 1.0, f"the request took {elapsed:.2f}s"
    assert statuses() == {"dead": 5000}  # nothing retried in the request itself
    assert RetryAllOperation.objects.get().total == 5000


def test_the_retry_puts_back_every_matching_job_with_a_fresh_budget(operator_client, make_dead):
    make_dead(1200)
    operator_client.post(RETRY_ALL)
    assert run_to_the_end() == 3
    assert statuses() == {"pending": 1200}
    assert set(Job.objects.values_list("attempt", "max_attempts")) == {(5, 8)}
    operation = RetryAllOperation.objects.get()
    assert (operation.retried, operation.refused, operation.running_slot) == (1200, {}, None)
    assert not RetryAllItem.objects.exists()


def test_each_batch_is_one_update_of_the_jobs(operator_client, make_dead):
    make_dead(1200)
    operator_client.post(RETRY_ALL)
    with CaptureQueriesContext(connection) as queries:
        retry_all_step(batch_size=500)
    updates = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("UPDATE")]
    assert len([sql for sql in updates if "jobs" in sql.split("SET")[0]]) == 1
    assert statuses() == {"pending": 500, "dead": 700}


def test_a_second_retry_all_while_one_runs_is_refused(operator_client, make_dead):
    make_dead(30)
    operator_client.post(RETRY_ALL, follow=True)  # its message read
    response = operator_client.post(RETRY_ALL, follow=True)
    [message] = [str(m) for m in get_messages(response.wsgi_request)]
    assert "already running (0 of 30 done)" in message
    assert RetryAllOperation.objects.count() == 1 and RetryAllItem.objects.count() == 30


def test_the_database_keeps_one_operation_running(operator_client, make_dead):
    make_dead(3)
    operator_client.post(RETRY_ALL)
    with pytest.raises(IntegrityError), transaction.atomic():
        RetryAllOperation.objects.create(requested_by="another worker")


def test_a_retry_all_matching_nothing_is_finished_at_once(operator_client, make_dead):
    make_dead(3, name="invoices")
    operator_client.post(f"{RETRY_ALL}?q=crm-sync")
    operation = RetryAllOperation.objects.get()
    assert (operation.total, operation.running_slot) == (0, None)
    assert operation.finished_at is not None


def test_another_retry_all_may_start_once_the_first_finished(operator_client, make_dead):
    make_dead(3)
    operator_client.post(RETRY_ALL)
    run_to_the_end()
    make_dead(2, name="second")
    operator_client.post(RETRY_ALL)
    assert RetryAllOperation.objects.order_by("-id").first().total == 2


def test_a_stopped_tenants_jobs_are_refused_and_counted(operator_client, make_dead, other_tenant):
    other_tenant.is_active = False
    other_tenant.save()
    make_dead(40, owner=other_tenant)
    make_dead(10)
    operator_client.post(RETRY_ALL)
    run_to_the_end()
    assert statuses() == {"dead": 40, "pending": 10}
    operation = RetryAllOperation.objects.get()
    assert (operation.retried, operation.refused) == (10, {"tenant_stopped": 40})


def test_a_deleted_tasks_jobs_and_jobs_gone_since_are_refused(operator_client, make_dead):
    deleted = make_dead(2, name="gone", status="deleted")
    discarded, *_ = make_dead(3)
    operator_client.post(RETRY_ALL)
    Job.objects.filter(id=discarded.id).update(status="cancelled")
    run_to_the_end()
    operation = RetryAllOperation.objects.get()
    assert operation.refused == {"task_deleted": len(deleted), "not_dead": 1}
    assert operation.retried == 2


def test_the_page_shows_progress_then_one_summary(operator_client, make_dead, other_tenant):
    other_tenant.is_active = False
    other_tenant.save()
    make_dead(700)
    make_dead(500, owner=other_tenant)
    response = operator_client.post(RETRY_ALL, follow=True)
    assert len(list(get_messages(response.wsgi_request))) == 1
    assert "0 of 1,200 done" in response.content.decode()
    retry_all_step(batch_size=500)
    page = operator_client.get(DLQ).content.decode()
    assert "500 of 1,200 done" in page and "Running." in page
    run_to_the_end()
    response = operator_client.get(DLQ)
    progress = response.content.decode().split('id="retry-all-progress">')[1].split("</p>")[0]
    assert "1,200 of 1,200 done, 700 put back in the queue, 500 refused" in progress
    assert "500 its tenant is stopped" in progress and "Finished" in progress
    assert not list(get_messages(response.wsgi_request))  # no message per refused job


@pytest.mark.django_db(transaction=True)  # the reconciler is another process
def test_the_reconciler_process_carries_the_retry_out(client, make_dead, tmp_path):
    client.force_login(User.objects.create_superuser("ops", "ops@example.com", "pw"))
    make_dead(1200)
    client.post(RETRY_ALL)
    reconciler = ManagedProcess(["run_reconciler", "--interval", "30"], tmp_path / "rec.log")
    try:
        wait_until(
            lambda: RetryAllOperation.objects.filter(finished_at__isnull=False).exists(),
            timeout=60,
            message=f"the retry did not finish: {tmp_path / 'rec.log'}",
        )
    finally:
        stop_all([reconciler])
    assert statuses() == {"pending": 1200}
