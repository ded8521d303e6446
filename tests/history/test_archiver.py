"""The archiver moves finished jobs to the history, history first, deleting what it read."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from history.models import JobHistory
from history.sql_store import SqlHistoryStore
from jobs.archive import archive_batch
from jobs.models import Job
from jobs.services import job_retry
from tests.statement_hooks import once_after_first

LONG_AGO = datetime.now(UTC) - timedelta(days=30)


class Crash(Exception):
    pass


@pytest.fixture
def finished_job(tenant, add_task):
    def make(status: str, finished_minutes_ago: float, attempt: int = 1) -> Job:
        task = add_task(status="completed")
        finished = datetime.now(UTC) - timedelta(minutes=finished_minutes_ago)
        return Job.objects.create(
            tenant=tenant,
            task=task,
            scheduled_at=finished,
            next_attempt_at=finished,
            status=status,
            attempt=attempt,
            finished_at=finished,
            http_status=200,
        )

    return make


def test_succeeded_job_older_than_an_hour_moves_to_the_history(finished_job):
    job = finished_job("succeeded", 61)
    assert archive_batch() == (1, 1)
    assert not Job.objects.filter(id=job.id).exists()
    assert JobHistory.objects.get(id=job.id).status == "succeeded"


def test_recent_succeeded_job_stays_in_the_queue(finished_job):
    job = finished_job("succeeded", 30)
    assert archive_batch() == (0, 0)
    assert Job.objects.filter(id=job.id).exists()


def test_dead_job_stays_for_the_dlq_window(finished_job):
    young = finished_job("dead", 60 * 24 * 13)
    old = finished_job("dead", 60 * 24 * 15)
    archive_batch()
    assert Job.objects.filter(id=young.id).exists()
    assert not Job.objects.filter(id=old.id).exists()


def test_cancelled_job_moves_after_an_hour(finished_job):
    job = finished_job("cancelled", 90)
    archive_batch()
    assert JobHistory.objects.filter(id=job.id).exists()


@pytest.mark.parametrize("status", ["pending", "running"])
def test_unfinished_jobs_are_never_archived(finished_job, status):
    job = finished_job(status, 600)
    assert archive_batch() == (0, 0)
    assert Job.objects.filter(id=job.id).exists()


def test_batches_are_bounded_and_a_backlog_drains(finished_job):
    for _ in range(7):
        finished_job("succeeded", 120)
    assert archive_batch(batch_size=3) == (3, 3)
    assert archive_batch(batch_size=3) == (3, 3)
    assert archive_batch(batch_size=3) == (1, 1)
    assert Job.objects.count() == 0 and JobHistory.objects.count() == 7


def test_crash_between_the_writes_leaves_the_job_in_both_stores(finished_job):
    job = finished_job("succeeded", 120)

    def crash():
        raise Crash

    with pytest.raises(Crash):
        archive_batch(between_writes=crash)
    assert Job.objects.filter(id=job.id).exists()
    assert JobHistory.objects.filter(id=job.id).exists()


def test_the_next_run_after_a_crash_finishes_the_move_without_a_duplicate(finished_job):
    job = finished_job("succeeded", 120)
    with pytest.raises(Crash):
        archive_batch(between_writes=lambda: (_ for _ in ()).throw(Crash))
    assert archive_batch() == (1, 1)
    assert JobHistory.objects.filter(id=job.id).count() == 1
    assert not Job.objects.filter(id=job.id).exists()


def test_a_failing_history_write_deletes_nothing(finished_job):
    job = finished_job("succeeded", 120)

    class Broken(SqlHistoryStore):
        def write(self, records):
            raise Crash

    with pytest.raises(Crash):
        archive_batch(store=Broken())
    assert Job.objects.filter(id=job.id).exists()


def test_dead_job_retried_between_the_read_and_the_delete_stays(finished_job, tenant):
    job = finished_job("dead", 60 * 24 * 15, attempt=3)
    written, deleted = archive_batch(
        between_writes=lambda: job_retry(actor="tests", tenant=tenant, job_id=job.id)
    )
    assert (written, deleted) == (1, 0)
    assert Job.objects.get(id=job.id).status == "pending"


def test_dead_job_retried_between_finding_and_reading_it_is_not_archived(finished_job, tenant):
    job = finished_job("dead", 60 * 24 * 15, attempt=3)
    # the archiver's finding read is the first statement ordered by wake_at
    retried = once_after_first(
        lambda sql: "ORDER BY wake_at" in sql,
        lambda: job_retry(actor="tests", tenant=tenant, job_id=job.id),
    )
    with connection.execute_wrapper(retried):
        written, deleted = archive_batch()
    assert (written, deleted) == (0, 0)
    assert Job.objects.get(id=job.id).status == "pending"
    assert not JobHistory.objects.filter(id=job.id).exists()


def test_sql_history_purges_rows_past_the_retention(finished_job):
    finished_job("succeeded", 120)
    archive_batch()
    store = SqlHistoryStore()
    assert store.purge(archived_before=datetime.now(UTC) - timedelta(days=30), batch_size=10) == 0
    JobHistory.objects.update(archived_at=LONG_AGO)
    assert store.purge(archived_before=datetime.now(UTC) - timedelta(days=29), batch_size=10) == 1


def test_archiver_waits_out_an_unavailable_history_store(db, monkeypatch):
    from execution.archiver_process import ArchiverProcess
    from history.records import HistoryUnavailable

    def unavailable(**kwargs):
        raise HistoryUnavailable("cluster down")

    monkeypatch.setattr("execution.archiver_process.archive_batch", unavailable)
    process = ArchiverProcess(interval=1)
    assert process._turn() > 0  # a backoff delay, not a crash
    assert process.turns == 0
