"""Every batched statement reaches its rows through the primary key (the reads that find
the rows stay inside the wake index: tests/test_wake_index.py).

MariaDB plans a statement anew for every batch size. When a batch's plan leaves the primary
key, a few hundred rows make it scan (and, under REPEATABLE READ, lock) the whole table, so
each batched statement is EXPLAINed here with a batch of 500 over a table of thousands of
jobs in every status.
"""

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.models import Q

from jobs.models import Job
from jobs.queue.mysql import (
    ARCHIVE_DELETE,
    ARCHIVE_DELETE_ATTEMPTS,
    CLAIMED_DETAILS,
    EXPIRED_ATTEMPTS,
    HAND_BACK,
    LOCK_EXPIRED,
    MARK_RUNNING,
    RECONCILE,
    RECORD_ATTEMPTS,
    RECORD_RESULTS,
)
from tasks.models import Task
from tasks.recent_stops import STOPPED
from tasks.sql import ADVANCE_TASKS_MYSQL
from tests.conftest import PUBLIC_URL

# ANALYZE TABLE commits the test's transaction (MariaDB commits around it): these tests
# must be flushed afterwards rather than rolled back.
pytestmark = pytest.mark.django_db(transaction=True)
BATCH = 500
STATUSES = ["pending", "running", "succeeded", "dead", "cancelled"]
WHEN = "2026-06-01 12:00:00.000000"


@pytest.fixture
def crowded_queue(tenant) -> tuple[list[str], list[str]]:
    """2,000 tasks and 6,000 jobs in every status; the ids of BATCH of each."""
    if connection.vendor != "mysql":
        pytest.fail("plans are MariaDB's: run with DATABASE_URL=mysql://...")
    start = datetime(2026, 6, 1, tzinfo=UTC)
    tasks = Task.objects.bulk_create(
        Task(tenant=tenant, url=PUBLIC_URL, cron="* * * * *", next_run_at=start, bucket=n % 1024)
        for n in range(2000)
    )
    Job.objects.bulk_create(
        Job(
            tenant=tenant,
            task=tasks[n % len(tasks)],
            scheduled_at=start + timedelta(seconds=n),
            next_attempt_at=start + timedelta(seconds=n),
            status=STATUSES[n % len(STATUSES)],
            attempt=1,
            worker_id="w1",
        )
        for n in range(6000)
    )
    with connection.cursor() as cursor:  # statistics as a table in service has them
        cursor.execute("ANALYZE TABLE jobs, tasks")
        cursor.fetchall()
    jobs = [str(job_id) for job_id in Job.objects.values_list("id", flat=True)[:BATCH]]
    return jobs, [str(task.id) for task in tasks[:BATCH]]


def batched(jobs: list[str], tasks: list[str]) -> dict[str, tuple[str, list, str]]:
    """Each batched statement with a BATCH-row parameter, and the table it must reach by key."""
    result = [[job_id, 1, "succeeded", None, WHEN, 200, None, None, 5, WHEN] for job_id in jobs]
    finished = json.dumps([[i, "succeeded", 1] for i in jobs])
    return {
        "archive delete": (ARCHIVE_DELETE, [finished], "j"),
        # A job has several attempts: a range on the key's first column, (job_id, attempt).
        "archive delete: attempts": (ARCHIVE_DELETE_ATTEMPTS, [finished], "a", "ref"),
        "claim: mark running": (MARK_RUNNING, [json.dumps(jobs), "w1", 30], "j"),
        "claim: details": (CLAIMED_DETAILS, [json.dumps(jobs), "w1"], "j"),
        "results": (RECORD_RESULTS, [json.dumps(result), "w1"], "j"),
        "results: attempts": (RECORD_ATTEMPTS, [json.dumps(result), "w1"], "j"),
        "reconcile": (RECONCILE, [json.dumps(jobs)], "j"),
        "reconcile: lock": (LOCK_EXPIRED, [json.dumps(jobs)], "j"),
        "reconcile: attempts": (EXPIRED_ATTEMPTS, [json.dumps(jobs)], "j"),
        "hand back": (HAND_BACK, [json.dumps([[i, 1] for i in jobs]), "w1"], "j"),
        "tick: advance tasks": (
            ADVANCE_TASKS_MYSQL,
            [json.dumps([[task_id, WHEN, "active"] for task_id in tasks])],
            "t",
        ),
    }


def plan_of(statement: str, params: list) -> list[dict]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + statement, params)
        columns = [column[0] for column in cursor.description]
        return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]


@pytest.mark.parametrize(
    "name",
    [
        "archive delete",
        "archive delete: attempts",
        "claim: mark running",
        "claim: details",
        "results",
        "results: attempts",
        "reconcile",
        "reconcile: lock",
        "reconcile: attempts",
        "hand back",
        "tick: advance tasks",
    ],
)
def test_a_batch_of_500_reaches_its_rows_through_the_primary_key(name, crowded_queue):
    statement, params, table, *access = batched(*crowded_queue)[name]
    plan = plan_of(statement, params)
    (target,) = [row for row in plan if row["table"] == table]
    assert (target["key"], target["type"]) == ("PRIMARY", *(access or ["eq_ref"])), plan


def test_the_archivers_read_back_of_500_found_jobs_uses_the_primary_key(crowded_queue):
    jobs, _ = crowded_queue
    cutoff = datetime(2030, 1, 1, tzinfo=UTC)
    read_back = Q(pk__in=[])
    for status, ids in (("succeeded", jobs[:250]), ("dead", jobs[250:])):
        read_back |= Q(id__in=ids, status=status, wake_at__lte=cutoff)
    query = Job.objects.filter(read_back).order_by("wake_at")
    (row,) = plan_of(*query.query.sql_with_params())
    assert (row["key"], row["type"]) == ("PRIMARY", "range"), row


def test_the_tuple_list_form_of_the_delete_would_scan_the_table(crowded_queue):
    """What the check above guards against: the former delete, a tuple IN list. Where it
    flips to a scan depends on the indexes (about 500 tuples with eight, more with six)."""
    ids = [str(job_id) for job_id in Job.objects.values_list("id", flat=True)[:2000]]
    params = [value for job_id in ids for value in (job_id, "succeeded", 1)]
    tuples = ", ".join(["(%s, %s, %s)"] * len(ids))
    (row,) = plan_of(f"DELETE FROM jobs WHERE (id, status, attempt) IN ({tuples})", params)
    assert row["type"] == "ALL", row


def test_the_executors_read_of_stopped_tasks_is_a_range_of_their_index(crowded_queue):
    """Every round of every executor asks it: deleted and paused tasks pile up over time,
    the read stays on the few changed since the last round."""
    old = datetime(2026, 1, 1, tzinfo=UTC)
    Task.objects.filter(id__in=crowded_queue[1][:400]).update(status="deleted", updated_at=old)
    since = datetime(2026, 6, 1, tzinfo=UTC)
    query = Task.objects.filter(status__in=STOPPED, updated_at__gte=since).values_list("id")
    (row,) = plan_of(*query.query.sql_with_params())
    assert (row["key"], row["type"]) == ("tasks_changed_idx", "range"), row
