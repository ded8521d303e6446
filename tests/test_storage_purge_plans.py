"""The archiver's purge reads finished tasks and expired run now keys through their own
indexes, a bounded range each batch, never a scan of the table (MariaDB's plans)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from jobs.models import Job, RunNowKey
from jobs.storage_purge import expired_run_now_keys, purge_candidates, tasks_with_jobs
from scheduler_site.ids import new_id
from tasks.models import Task
from tests.conftest import PUBLIC_URL

pytestmark = pytest.mark.django_db(transaction=True)  # ANALYZE TABLE commits
NOW = datetime.now(UTC) + timedelta(days=1)  # every finished row is past the retention


@pytest.fixture
def crowded_tables(tenant):
    if connection.vendor != "mysql":
        pytest.fail("plans are MariaDB's: run with DATABASE_URL=mysql://...")
    statuses = ["active"] * 8 + ["paused", "deleted", "completed"]
    tasks = Task.objects.bulk_create(
        Task(tenant=tenant, url=PUBLIC_URL, cron="* * * * *", status=statuses[n % len(statuses)])
        for n in range(1500)
    )
    Job.objects.bulk_create(
        Job(
            tenant=tenant,
            task=tasks[n % 1500],
            scheduled_at=NOW + timedelta(seconds=n),
            next_attempt_at=NOW,
            status="succeeded",
        )
        for n in range(3000)
    )
    RunNowKey.objects.bulk_create(
        RunNowKey(tenant_id=tenant.id, idempotency_key=f"k{n}", task_id=new_id(), job_id=new_id())
        for n in range(1500)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE TABLE tasks, jobs, run_now_keys")
        cursor.fetchall()
    return [task.id for task in tasks]


def plan(query) -> list[dict]:
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@pytest.mark.parametrize("status", ["deleted", "completed"])
@pytest.mark.parametrize("after", [None, (NOW - timedelta(days=30), new_id())])
def test_the_purge_finds_finished_tasks_through_its_index(crowded_tables, status, after):
    (row,) = plan(purge_candidates(status, NOW, after)[:500])
    # Read in the index's order, so the LIMIT stops the read: no sort of every match.
    assert row["key"] == "tasks_changed_idx" and row["type"] in ("range", "ref"), row
    assert "filesort" not in row["Extra"], row


def test_the_purge_finds_expired_run_now_keys_through_their_index(crowded_tables):
    (row,) = plan(expired_run_now_keys(NOW).values_list("id", flat=True)[:500])
    assert row["key"] == "run_now_keys_created_idx" and row["type"] == "range", row
    assert "filesort" not in row["Extra"], row


def test_the_purge_looks_for_the_jobs_of_a_batch_through_the_run_key(crowded_tables):
    (row,) = plan(tasks_with_jobs(crowded_tables[:500]))
    assert row["key"] == "jobs_task_run_uniq" and row["type"] == "range", row
