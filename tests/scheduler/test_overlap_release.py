"""A buffered run (`waiting`) goes the moment the run before it finishes: through the
executor's results, the reconciler's last death of a lease, a cancel, and the sweep."""

from datetime import UTC, datetime, timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from execution.scheduler_process import SchedulerProcess
from jobs.models import Job
from jobs.queue import (
    JobResult,
    claim_jobs,
    outcome,
    reconcile_expired_leases,
    record_results,
)
from jobs.services import job_cancel, jobs_cancel_pending_for_task
from jobs.waiting import release_stranded
from tasks.models import Task
from tasks.partitions import PartitionLeases
from tasks.services import task_pause
from tasks.tick import run_tick


def buffered_task(add_task, *, max_attempts: int = 3):
    """A buffer_one task with one pending run and one waiting behind it."""
    now = datetime.now(UTC).replace(microsecond=0)
    task = add_task(overlap="buffer_one", next_run_at=now - timedelta(minutes=2))
    task.max_attempts = max_attempts
    Task.objects.filter(id=task.id).update(max_attempts=max_attempts)
    run_tick(now=now)  # the run due two minutes ago: pending
    run_tick(now=now)  # the one due a minute ago: waiting behind it
    first, second = Job.objects.filter(task=task).order_by("scheduled_at")
    assert (first.status, second.status) == ("pending", "waiting")
    return task, first, second


def status_of(job) -> str:
    return Job.objects.get(id=job.id).status


def claim_one(job):
    batch = claim_jobs(worker_id="w1", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    (claimed,) = [c for c in batch.jobs if str(c.id) == str(job.id)]
    return claimed


def expire_lease(job) -> None:
    Job.objects.filter(id=job.id).update(lease_expires_at=datetime.now(UTC) - timedelta(seconds=1))


def result(claimed, status: str, **fields) -> JobResult:
    """The result row as the executor makes it (outcome() marks the finished runs of a
    buffer_one task as releasing)."""
    now = datetime.now(UTC)
    if status in ("succeeded", "dead"):
        return outcome(claimed, succeeded=status == "succeeded", now=now, started_at=now)
    return JobResult(claimed.key, claimed.attempt, status, started_at=now, **fields)


def test_the_claim_never_takes_a_waiting_job(add_task):
    _, first, second = buffered_task(add_task)
    batch = claim_jobs(worker_id="w1", critical_limit=10, normal_limit=10, lookahead_seconds=60)
    assert [str(job.id) for job in batch.jobs] == [str(first.id)]


def test_success_releases_the_waiting_run(add_task):
    _, first, second = buffered_task(add_task)
    claimed = claim_one(first)
    before = datetime.now(UTC) - timedelta(seconds=1)
    finished = result(claimed, "succeeded", finished_at=datetime.now(UTC))
    assert record_results(worker_id="w1", results=[finished]) == 1
    released = Job.objects.get(id=second.id)
    assert released.status == "pending" and released.next_attempt_at >= before


def test_a_retry_keeps_the_run_waiting(add_task):
    _, first, second = buffered_task(add_task)
    claimed = claim_one(first)
    later = datetime.now(UTC) + timedelta(minutes=5)
    record_results(worker_id="w1", results=[result(claimed, "pending", next_attempt_at=later)])
    assert status_of(second) == "waiting"


def test_the_last_lease_death_releases_the_waiting_run(add_task):
    _, first, second = buffered_task(add_task, max_attempts=1)
    claim_one(first)
    expire_lease(first)
    assert reconcile_expired_leases() == 1
    assert (status_of(first), status_of(second)) == ("dead", "pending")


def test_a_lease_death_with_attempts_left_keeps_the_run_waiting(add_task):
    _, first, second = buffered_task(add_task, max_attempts=3)
    claim_one(first)
    expire_lease(first)
    reconcile_expired_leases()
    assert (status_of(first), status_of(second)) == ("pending", "waiting")


def test_cancel_releases_the_waiting_run(add_task, tenant):
    _, first, second = buffered_task(add_task)
    job_cancel(actor="tests", tenant=tenant, job_id=first.id)
    assert status_of(second) == "pending"


def test_a_waiting_run_can_be_cancelled(add_task, tenant):
    _, first, second = buffered_task(add_task)
    job_cancel(actor="tests", tenant=tenant, job_id=second.id)
    assert (status_of(first), status_of(second)) == ("pending", "cancelled")


def test_deleting_the_task_cancels_its_waiting_run(add_task):
    task, first, second = buffered_task(add_task)
    jobs_cancel_pending_for_task(task_id=task.id)
    assert (status_of(first), status_of(second)) == ("cancelled", "cancelled")


def test_a_pause_keeps_the_run_waiting_and_its_release_holds_it(add_task, tenant):
    task, first, second = buffered_task(add_task)
    task_pause(actor="tests", tenant=tenant, task_id=task.id, expected_version=task.version)
    assert (status_of(first), status_of(second)) == ("held", "waiting")
    job_cancel(actor="tests", tenant=tenant, job_id=first.id)
    assert status_of(second) == "held"


def test_the_sweep_releases_a_run_left_waiting(add_task):
    _, first, second = buffered_task(add_task)
    # Finished without the release (as when the tick made the waiting run meanwhile).
    Job.objects.filter(id=first.id).update(status="succeeded", finished_at=datetime.now(UTC))
    assert status_of(second) == "waiting"
    assert release_stranded() == 1
    assert status_of(second) == "pending"


def test_the_sweep_leaves_a_run_whose_task_is_busy(add_task):
    _, first, second = buffered_task(add_task)
    assert release_stranded() == 0
    assert status_of(second) == "waiting"


def test_the_sweep_leaves_a_run_whose_earlier_run_its_flow_holds_back(add_task):
    _, first, second = buffered_task(add_task)
    Job.objects.filter(id=first.id).update(status="throttled")
    assert release_stranded() == 0
    assert status_of(second) == "waiting"


def test_results_of_tasks_buffering_nothing_release_nothing(add_task, make_job):
    _, first, second = buffered_task(add_task)
    other = make_job("https://93.184.216.34/hook")
    claimed = claim_jobs(worker_id="w2", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    mine = [c for c in claimed.jobs if str(c.id) == str(other.id)]
    done = result(mine[0], "succeeded", finished_at=datetime.now(UTC))
    record_results(worker_id="w2", results=[done])
    assert status_of(second) == "waiting"


def test_the_scheduler_process_sweeps_on_every_tick(add_task):
    _, first, second = buffered_task(add_task)
    Job.objects.filter(id=first.id).update(status="succeeded", finished_at=datetime.now(UTC))
    process = SchedulerProcess(leases=PartitionLeases.from_settings("sweeper"))
    process.run_once()
    assert process.released == 1 and status_of(second) == "pending"


def test_results_of_tasks_that_buffer_nothing_ask_no_release(add_task, make_job):
    other = make_job("https://93.184.216.34/hook")
    claimed = claim_jobs(worker_id="w3", critical_limit=10, normal_limit=10, lookahead_seconds=0)
    (mine,) = [c for c in claimed.jobs if str(c.id) == str(other.id)]
    with CaptureQueriesContext(connection) as queries:
        record_results(worker_id="w3", results=[result(mine, "succeeded")])
    assert not [q for q in queries.captured_queries if "waiting" in q["sql"]]
