"""The DLQ's readers stop after what they return: a page of the tenant's dead runs is one
range of jobs_dead_letters_idx read backwards from the cursor, never the whole DLQ (the wake
index held it in ten ranges by death time, read to their ends and sorted by id).

MariaDB's plans and handler counts, on a DLQ much deeper than a page."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from jobs.bulk_filters import matching_jobs
from jobs.models import CALLBACK_PRIORITY, Job, JobStatus
from jobs.queue.mysql import DEAD_LETTER_IDS
from jobs.selectors import MAX_ID, dead_jobs
from scheduler_site.sqltools import uuid_param
from tasks.models import Task
from tests.conftest import PUBLIC_URL

# ANALYZE TABLE commits (MariaDB commits around it): flushed afterwards, not rolled back.
pytestmark = pytest.mark.django_db(transaction=True)
NOW = datetime.now(UTC)
DEEP = 3000  # the tenant's dead runs: sixty pages of 50
PAGE = 50


def dead(tenant, task, n: int, **fields) -> Job:
    at = NOW - timedelta(seconds=n)
    values = {"priority": n % 10, "status": "dead", "finished_at": at} | fields
    return Job(tenant=tenant, task=task, scheduled_at=at, next_attempt_at=at, attempt=5, **values)


@pytest.fixture
def deep_dlq(tenant, other_tenant) -> Task:
    """The tenant's deep DLQ among its dead callbacks, its succeeded runs and another
    tenant's DLQ; the task of the tenant's last 100 dead runs is returned."""
    if connection.vendor != "mysql":
        pytest.fail(
            "plans are MariaDB's: run with DATABASE_URL=mysql://... (scripts/ensure_mariadb.sh)"
        )
    task, rare = (
        Task.objects.create(tenant=tenant, url=PUBLIC_URL, cron="* * * * *", next_run_at=NOW)
        for _ in range(2)
    )
    rows = [dead(tenant, task if n >= 100 else rare, n) for n in range(DEEP)]
    rows += [dead(tenant, task, DEEP + n, priority=CALLBACK_PRIORITY) for n in range(500)]
    rows += [dead(tenant, task, 2 * DEEP + n, status="succeeded") for n in range(DEEP)]
    rows += [dead(other_tenant, task, 3 * DEEP + n) for n in range(DEEP)]
    Job.objects.bulk_create(rows)
    with connection.cursor() as cursor:  # statistics as a table in service has them
        cursor.execute("ANALYZE TABLE jobs, tasks, tenants")
        cursor.fetchall()
    return rare


def plan_of(statement: str, params: list) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + statement, params)
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


def rows_read(action) -> int:
    """The index and table entries this connection's handlers stepped through in `action`."""

    def handler_reads() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
            return sum(int(value) for _, value in cursor.fetchall())

    before = handler_reads()
    action()
    return handler_reads() - before - 1  # the second SHOW's own status row


def test_a_dlq_page_is_one_backward_range_of_the_dlq_index(deep_dlq, tenant):
    params = [uuid_param(tenant.id), uuid_param(MAX_ID), PAGE]
    (row,) = plan_of(DEAD_LETTER_IDS, params)
    assert (row["key"], row["type"]) == ("jobs_dead_letters_idx", "range"), row
    assert "Using index" in row["Extra"] and "filesort" not in row["Extra"], row


def test_a_dlq_page_reads_about_a_page_of_rows_however_deep_the_dlq(deep_dlq, tenant):
    page: list[Job] = []
    read = rows_read(lambda: page.extend(dead_jobs(tenant=tenant, before_id=None, limit=PAGE)))
    assert len(page) == PAGE and all(job.tenant_id == tenant.id for job in page)
    assert read <= 3 * PAGE, f"{read} rows read for a page of {PAGE} (the DLQ holds {DEEP})"


def test_a_deep_dlq_page_reads_as_little_as_the_first(deep_dlq, tenant):
    cursor = dead_jobs(tenant=tenant, before_id=None, limit=DEEP - PAGE)[-1].id
    read = rows_read(lambda: dead_jobs(tenant=tenant, before_id=cursor, limit=PAGE))
    assert read <= 3 * PAGE, read


def test_the_dlq_pages_hold_the_tenants_dead_runs_newest_id_first(deep_dlq, tenant):
    ids, before = [], None
    while page := dead_jobs(tenant=tenant, before_id=before, limit=1000):
        ids += [job.id for job in page]
        before = page[-1].id
    expected = tenant_dead_ids(tenant)
    assert ids == sorted(expected, reverse=True) and len(ids) == DEEP


def tenant_dead_ids(tenant) -> list:
    runs = Job.objects.filter(tenant=tenant, status="dead", priority__lt=CALLBACK_PRIORITY)
    return list(runs.values_list("id", flat=True))


def test_a_task_filtered_dlq_page_reads_that_tasks_rows_not_the_dlq(deep_dlq, tenant):
    page: list[Job] = []
    read = rows_read(
        lambda: page.extend(
            dead_jobs(tenant=tenant, before_id=None, limit=PAGE, task_id=deep_dlq.id)
        )
    )
    assert len(page) == PAGE and {job.task_id for job in page} == {deep_dlq.id}
    assert read <= 10 * PAGE, f"{read} rows read (the DLQ holds {DEEP})"


def test_a_bulk_retrys_batch_is_one_range_of_the_dlq_index(deep_dlq, tenant):
    matching = matching_jobs(tenant=tenant, criteria={}, statuses=[JobStatus.DEAD])
    batch = matching.filter(id__gt=uuid.UUID(int=0)).order_by("id").values("id")[:500]
    sql, params = batch.query.sql_with_params()
    (row,) = plan_of(sql, list(params))
    assert row["key"] == "jobs_dead_letters_idx" and "filesort" not in row["Extra"], row
