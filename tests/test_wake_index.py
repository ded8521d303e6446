"""The queue's processes read one secondary index, `(status, priority, tenant_id, wake_at)`.

`wake_at` follows the row's state (tests/executor/test_wake_at.py), every process's read
stays inside the index (a loose scan for the groups, one tight range per group), and a locking
read locks what it takes, not every row of its status.
"""

import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from jobs.models import Job
from jobs.queue.mysql import MySQLQueue
from jobs.queue.sql import TENANT_BUDGETS
from jobs.selectors import dead_jobs
from jobs.wake_index import GROUPS, oldest_rows, part
from scheduler_site.sqltools import uuid_param
from tasks.models import Task
from tests.conftest import PUBLIC_URL

# ANALYZE TABLE commits the test's transaction (MariaDB commits around it): these tests
# must be flushed afterwards rather than rolled back.
pytestmark = pytest.mark.django_db(transaction=True)
NOW = datetime.now(UTC)
LONG_AGO = NOW - timedelta(days=2)
LATER = NOW + timedelta(hours=1)
EXPIRED = 20  # running rows whose lease ran out, among 2,000 whose lease holds
OLD = 20  # succeeded rows old enough to archive, among 2,000 recent ones


def job(tenant, task, n: int, status: str, **fields) -> Job:
    return Job(
        tenant=tenant,
        task=task,
        scheduled_at=NOW + timedelta(seconds=n),
        next_attempt_at=LATER,
        priority=n % 10,
        status=status,
        attempt=1,
        **fields,
    )


@pytest.fixture
def busy_queue(tenant, other_tenant) -> None:
    """Two tenants' jobs in every state, at every priority."""
    if connection.vendor != "mysql":
        pytest.fail("plans and locks are MariaDB's: run with DATABASE_URL=mysql://...")
    task = Task.objects.create(tenant=tenant, url=PUBLIC_URL, cron="* * * * *", next_run_at=NOW)
    owners = [tenant, other_tenant]
    held = {"worker_id": "w1", "lease_expires_at": LATER}
    rows = [job(owners[n % 2], task, n, "pending") for n in range(2000)]
    rows += [job(owners[n % 2], task, 10_000 + n, "running", **held) for n in range(2000)]
    gone = {"worker_id": "w1", "lease_expires_at": LONG_AGO}
    rows += [job(owners[n % 2], task, 20_000 + n, "running", **gone) for n in range(EXPIRED)]
    rows += [
        job(owners[n % 2], task, 30_000 + n, "succeeded", finished_at=NOW) for n in range(2000)
    ]
    old = {"finished_at": LONG_AGO}
    rows += [job(owners[n % 2], task, 40_000 + n, "succeeded", **old) for n in range(OLD)]
    rows += [job(tenant, task, 50_000 + n, "dead", finished_at=NOW) for n in range(200)]
    Job.objects.bulk_create(rows)
    with connection.cursor() as cursor:  # statistics as a table in service has them
        cursor.execute("ANALYZE TABLE jobs, tasks, tenants")
        cursor.fetchall()


def plan_of(statement: str, params: list) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + statement, params)
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


@pytest.mark.parametrize("status", ["pending", "running", "succeeded"])
def test_the_groups_needing_attention_are_found_with_a_loose_scan(status, busy_queue):
    (row,) = plan_of(GROUPS.format(until="%s"), [status, status, LATER])
    assert row["key"] == "jobs_wake_idx" and "index for group-by" in row["Extra"], row


def test_a_groups_rows_are_one_tight_range_of_the_index(busy_queue, tenant):
    sql, params = part("pending", 5, uuid_param(tenant.id), 500, ("%s", [LATER]), "", 0)
    plan = plan_of(sql, params)
    (target,) = [row for row in plan if row["table"] == "jobs"]
    assert (target["key"], target["type"]) == ("jobs_wake_idx", "range"), plan


SKIP_LOCKED_RUNNING = "SELECT id FROM jobs WHERE status = 'running' FOR UPDATE SKIP LOCKED"


def unlocked_running_ids() -> set[str]:
    """The running jobs another connection can lock right now (SKIP LOCKED passes the
    others by): asked from a thread of its own, so from a connection of its own."""
    seen: set[str] = set()

    def look() -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(SKIP_LOCKED_RUNNING)
                seen.update(str(row[0]) for row in cursor.fetchall())
        finally:
            connection.close()

    thread = threading.Thread(target=look)
    thread.start()
    thread.join()
    return seen


def running_ids() -> set[str]:
    return {str(i) for i in Job.objects.filter(status="running").values_list("id", flat=True)}


def test_the_reconciler_takes_the_expired_leases_only(busy_queue):
    with transaction.atomic(), connection.cursor() as cursor:
        taken = MySQLQueue().expired_leases(cursor, 1000)
    expired = Job.objects.filter(status="running", lease_expires_at__lt=NOW)
    assert sorted(taken) == sorted(str(i) for i in expired.values_list("id", flat=True))


def test_the_reconciler_locks_what_it_takes_and_no_live_job(busy_queue):
    everything = running_ids()
    with transaction.atomic(), connection.cursor() as cursor:
        taken = set(MySQLQueue().expired_leases(cursor, 1000))
        assert len(taken) == EXPIRED
        assert unlocked_running_ids() == everything - taken


def test_a_plain_locking_range_on_status_and_wake_at_would_lock_live_jobs(busy_queue):
    """What the reconciler avoids: priority and tenant sit between status and wake_at, so
    the range walks, and locks, every running row."""
    everything = running_ids()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM jobs WHERE status = 'running' AND wake_at < NOW(6)"
            " LIMIT 1000 FOR UPDATE SKIP LOCKED"
        )
        assert len(cursor.fetchall()) == EXPIRED
        assert len(unlocked_running_ids()) < len(everything) // 10


def test_the_archivers_read_returns_the_rows_old_enough_only(busy_queue):
    cutoff = NOW - timedelta(hours=1)
    with connection.cursor() as cursor:
        rows = oldest_rows(cursor, "succeeded", ("%s", [cutoff]), 500)
    assert len(rows) == OLD


def test_tenants_running_counts_read_ranges_of_the_index_planned_once(busy_queue, tenant):
    ids = [uuid_param(tenant.id)]
    plan = plan_of(TENANT_BUDGETS.format(placeholders="%s"), ids * 2)
    (count,) = [row for row in plan if row["table"] == "jobs"]
    assert (count["key"], count["type"]) == ("jobs_wake_idx", "range"), plan
    assert "Using index" in count["Extra"] and "checked for each" not in count["Extra"], plan


def test_tenants_running_counts_are_counted(busy_queue, tenant, other_tenant):
    ids = [str(t.id).replace("-", "") for t in (tenant, other_tenant)]
    with connection.cursor() as cursor:
        cursor.execute(TENANT_BUDGETS.format(placeholders="%s, %s"), ids * 2)
        running = {str(row[0]).replace("-", ""): row[2] for row in cursor.fetchall()}
    assert running == {ids[0]: 1010, ids[1]: 1010}


def test_dead_letter_pages_follow_each_other_newest_first(busy_queue, tenant):
    first = dead_jobs(tenant=tenant, before_id=None, limit=120)
    second = dead_jobs(tenant=tenant, before_id=first[-1].id, limit=120)
    ids = [job.id for job in first + second]
    assert len(ids) == 200 == len(set(ids)) and ids == sorted(ids, reverse=True)


def test_the_jobs_table_keeps_four_b_trees(busy_queue):
    """Every index is written by every insert and delete of a job: the primary key, the run
    key that makes a tick's repeat a no-op, the wake index, and the DLQ's index (which only
    a death or a retry moves besides: tests/jobs/test_dead_tenant.py)."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW INDEX FROM jobs")
        names = {row[2] for row in cursor.fetchall()}
    assert names == {"PRIMARY", "jobs_task_run_uniq", "jobs_wake_idx", "jobs_dead_letters_idx"}
