"""The per-minute counts, added by the result write in its transaction: outcomes, start
delays in buckets and the percentiles read back, on the real queue statements."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.minute_reads import window_slots
from jobs.models import Job, MinuteCount
from jobs.queue import JobResult, claim_jobs, record_results
from jobs.queue.minute_counts import ALL_TENANTS, writer_number

pytestmark = pytest.mark.django_db(transaction=True)
MINUTE = datetime.now(UTC).replace(second=0, microsecond=0) - timedelta(minutes=3)


def claim(worker: str, count: int):
    batch = claim_jobs(
        worker_id=worker, critical_limit=count, normal_limit=count, lookahead_seconds=0
    )
    assert len(batch.jobs) == count
    return batch.jobs


def result(job, status: str, *, delay: float, started: datetime = MINUTE) -> JobResult:
    """The result of `job`'s attempt, started at `started`, `delay` s after it was due."""
    job_due = started - timedelta(seconds=delay)
    Job.objects.filter(id=job.id).update(next_attempt_at=job_due)
    return JobResult(
        job.key,
        job.attempt,
        status,
        finished_at=started + timedelta(seconds=1),
        started_at=started + timedelta(seconds=5),
        next_attempt_at=started + timedelta(minutes=5) if status == "pending" else None,
    )


def jobs_due(make_job, count: int, tenant=None):
    return [
        make_job("https://example.com/", due=MINUTE - timedelta(minutes=1), task_tenant=tenant)
        for _ in range(count)
    ]


def test_each_outcome_is_counted_for_its_tenant_and_in_the_total(make_job, tenant):
    jobs_due(make_job, 4)
    claimed = claim("w1", 4)
    statuses = ["succeeded", "succeeded", "pending", "dead"]
    assert (
        record_results(
            worker_id="w1",
            results=[result(j, s, delay=0.0) for j, s in zip(claimed, statuses, strict=True)],
        )
        == 4
    )
    for owner in (tenant.id, ALL_TENANTS):
        row = MinuteCount.objects.get(tenant_id=owner)
        assert (row.delivered, row.failed, row.dead) == (2, 1, 1)
        assert row.minute == MINUTE and row.writer == writer_number("w1")


def test_start_delays_fall_in_their_buckets(make_job):
    jobs_due(make_job, 3)
    claimed = claim("w1", 3)
    delays = [0.004, 0.7, 42.0]  # under 10 ms, under 1 s, under 60 s
    record_results(
        worker_id="w1",
        results=[result(j, "succeeded", delay=d - 5) for j, d in zip(claimed, delays, strict=True)],
    )
    row = MinuteCount.objects.get(tenant_id=ALL_TENANTS)
    assert (row.under_10ms, row.under_1s, row.under_60s) == (1, 1, 1)
    assert row.under_25ms == row.over_300s == 0


def test_batches_add_to_the_same_minute_row(make_job):
    jobs_due(make_job, 2)
    first, second = claim("w1", 2)
    record_results(worker_id="w1", results=[result(first, "succeeded", delay=0)])
    record_results(worker_id="w1", results=[result(second, "succeeded", delay=0)])
    assert MinuteCount.objects.get(tenant_id=ALL_TENANTS).delivered == 2


def test_each_executor_writes_rows_of_its_own(make_job):
    jobs_due(make_job, 2)
    (mine,), (theirs,) = claim("w1", 1), claim("w2", 1)
    record_results(worker_id="w1", results=[result(mine, "succeeded", delay=0)])
    record_results(worker_id="w2", results=[result(theirs, "succeeded", delay=0)])
    writers = MinuteCount.objects.filter(tenant_id=ALL_TENANTS).values_list("writer", flat=True)
    assert sorted(writers) == sorted([writer_number("w1"), writer_number("w2")])


def test_a_stale_result_and_a_cancel_count_for_nothing(make_job):
    jobs_due(make_job, 2)
    first, second = claim("w1", 2)
    assert (
        record_results(worker_id="someone-else", results=[result(first, "succeeded", delay=0)]) == 0
    )
    cancel = JobResult(second.key, second.attempt, "cancelled", finished_at=MINUTE)
    assert record_results(worker_id="w1", results=[cancel]) == 1
    assert not MinuteCount.objects.exists()


def test_percentiles_come_from_the_summed_buckets_of_every_writer(make_job):
    jobs_due(make_job, 100)
    for worker in ("w1", "w2"):
        # Of each writer's 50 calls, 49 started within 10 ms of their time, one after 40 s.
        claimed = claim(worker, 50)
        delays = [40.0 if index == 0 else 0.001 for index in range(50)]
        batch = [result(j, "succeeded", delay=d - 5) for j, d in zip(claimed, delays, strict=True)]
        record_results(worker_id=worker, results=batch)
    (slot,) = window_slots(end=MINUTE, span=timedelta(minutes=5), step=timedelta(minutes=5))
    assert slot.delivered == 100
    assert slot.p50 < 0.01 and 30 <= slot.p99 <= 60


def test_callbacks_are_a_lane_of_their_own_and_not_counted(make_job):
    callback = make_job("https://example.com/", due=MINUTE - timedelta(minutes=1), priority=10)
    (claimed,) = claim("w1", 1)
    assert claimed.id == str(callback.id)
    assert record_results(worker_id="w1", results=[result(claimed, "succeeded", delay=0)]) == 1
    assert not MinuteCount.objects.exists()
