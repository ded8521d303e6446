"""The overlap floor: the tick reads a skip or buffer_one task's jobs from the instant before
which none is unfinished, and every path that revives or makes a job out of the schedule's
order clears it, so the check never misses an unfinished run."""

from datetime import timedelta

from jobs.backfill import task_backfill
from jobs.backfill_range import BackfillRange
from jobs.bulk_retry import jobs_retry_dead
from jobs.models import Job
from jobs.run_now import task_run_now
from jobs.services import job_retry
from tasks.models import Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)


def floor_of(task):
    return Task.objects.get(id=task.id).overlap_floor


def tick_at(task, at) -> int:
    """One tick with the task due at `at`; returns the jobs it made."""
    Task.objects.filter(id=task.id).update(next_run_at=at)
    return run_tick(now=at + timedelta(seconds=1)).jobs


def finish(at_scheduled, task, status: str = "succeeded") -> Job:
    job = Job.objects.get(task=task, scheduled_at=at_scheduled)
    Job.objects.filter(id=job.id).update(status=status, finished_at=NOW)
    return job


def test_a_run_made_with_nothing_unfinished_sets_the_floor_at_it(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    assert tick_at(task, MINUTE) == 1
    assert floor_of(task) == MINUTE


def test_a_busy_task_keeps_its_floor_at_its_oldest_unfinished_run(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0  # skipped: the first runs
    assert floor_of(task) == MINUTE


def test_an_allow_task_keeps_no_floor(add_task):
    task = add_task(overlap="allow")
    tick_at(task, MINUTE)
    assert floor_of(task) is None


def test_runs_finished_before_the_floor_are_not_read_as_unfinished(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    finish(MINUTE, task)
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 1
    assert floor_of(task) == MINUTE + timedelta(minutes=1)


def dead_run_before_the_floor(task) -> Job:
    """A skip task whose first run died, then a later run made and finished: the floor is
    past the dead run."""
    tick_at(task, MINUTE)
    dead = finish(MINUTE, task, "dead")
    tick_at(task, MINUTE + timedelta(minutes=1))
    finish(MINUTE + timedelta(minutes=1), task)
    assert floor_of(task) == MINUTE + timedelta(minutes=1)
    return dead


def test_a_retried_dead_run_before_the_floor_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip")
    dead = dead_run_before_the_floor(task)
    job_retry(tenant=task.tenant, job_id=dead.id)
    assert tick_at(task, MINUTE + timedelta(minutes=2)) == 0


def test_a_bulk_retry_before_the_floor_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip")
    dead = dead_run_before_the_floor(task)
    assert jobs_retry_dead(job_ids=[dead.id]).retried == 1
    assert tick_at(task, MINUTE + timedelta(minutes=2)) == 0


def test_a_backfilled_run_before_the_floor_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip", cron="* * * * *")
    tick_at(task, MINUTE)
    finish(MINUTE, task)
    earlier = MINUTE - timedelta(minutes=3)
    window = BackfillRange(earlier, earlier + timedelta(minutes=1))
    assert task_backfill(tenant=task.tenant, task_id=task.id, window=window).made == 1
    assert floor_of(task) is None
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0


def test_a_run_now_clears_the_floor(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    task_run_now(tenant=task.tenant, task_id=task.id)
    assert floor_of(task) is None
