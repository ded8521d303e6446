"""The run a task's overlap check reads: the tick remembers a skip or buffer_one task's newest
run when it alone can be unfinished, and every path that revives or makes a job out of the
schedule's order makes it forget, so the check never misses an unfinished run."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from jobs.backfill import task_backfill
from jobs.backfill_range import BackfillRange
from jobs.bulk_retry import jobs_retry_dead
from jobs.models import Job
from jobs.run_now import task_run_now
from jobs.services import job_cancel, job_retry
from scheduler_site.ids import new_id
from tasks.models import Task
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)


def remembered(task):
    return Task.objects.get(id=task.id).overlap_job_id


def job_at(task, at) -> Job:
    return Job.objects.get(task=task, scheduled_at=at)


def tick_at(task, at) -> int:
    """One tick with the task due at `at`; returns the jobs it made."""
    Task.objects.filter(id=task.id).update(next_run_at=at)
    return run_tick(now=at + timedelta(seconds=1)).jobs


def finish(at_scheduled, task, status: str = "succeeded") -> Job:
    job = Job.objects.get(task=task, scheduled_at=at_scheduled)
    Job.objects.filter(id=job.id).update(status=status, finished_at=NOW)
    return job


def test_the_run_made_is_remembered(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE)
    assert tick_at(task, MINUTE) == 1
    assert remembered(task) == job_at(task, MINUTE).id


def test_a_busy_task_keeps_its_unfinished_run_remembered(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0  # skipped: the first runs
    assert remembered(task) == job_at(task, MINUTE).id


def test_buffer_one_remembers_the_waiting_run(add_task):
    task = add_task(overlap="buffer_one")
    tick_at(task, MINUTE)
    tick_at(task, MINUTE + timedelta(minutes=1))
    waiting = job_at(task, MINUTE + timedelta(minutes=1))
    assert waiting.status == "waiting" and remembered(task) == waiting.id
    assert tick_at(task, MINUTE + timedelta(minutes=2)) == 0  # one waits already


def test_an_allow_task_remembers_nothing(add_task):
    task = add_task(overlap="allow")
    tick_at(task, MINUTE)
    assert remembered(task) is None


def test_a_finished_remembered_run_lets_the_next_one_go(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    finish(MINUTE, task)
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 1


def test_two_unfinished_runs_are_not_remembered_by_one(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    task_run_now(actor="tests", tenant=task.tenant, task_id=task.id)
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0
    assert remembered(task) is None  # either could finish first: read them all again


def dead_run_behind_the_remembered_one(task) -> Job:
    """A skip task whose first run died, then a later run made and finished: the task
    remembers the later one."""
    tick_at(task, MINUTE)
    dead = finish(MINUTE, task, "dead")
    tick_at(task, MINUTE + timedelta(minutes=1))
    finish(MINUTE + timedelta(minutes=1), task)
    assert remembered(task) == job_at(task, MINUTE + timedelta(minutes=1)).id
    return dead


def test_a_retried_dead_run_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip")
    dead = dead_run_behind_the_remembered_one(task)
    job_retry(actor="tests", tenant=task.tenant, job_id=dead.id)
    assert tick_at(task, MINUTE + timedelta(minutes=2)) == 0


def test_a_bulk_retry_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip")
    dead = dead_run_behind_the_remembered_one(task)
    assert jobs_retry_dead(job_ids=[dead.id]).retried == 1
    assert tick_at(task, MINUTE + timedelta(minutes=2)) == 0


def test_a_backfilled_run_holds_the_next_run_back(add_task):
    task = add_task(overlap="skip", cron="* * * * *")
    tick_at(task, MINUTE)
    finish(MINUTE, task)
    earlier = MINUTE - timedelta(minutes=3)
    window = BackfillRange(earlier, earlier + timedelta(minutes=1))
    assert (
        task_backfill(actor="tests", tenant=task.tenant, task_id=task.id, window=window).made == 1
    )
    assert remembered(task) is None
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0


def test_a_run_now_makes_the_task_forget_its_run(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    task_run_now(actor="tests", tenant=task.tenant, task_id=task.id)
    assert remembered(task) is None


def test_a_remembered_run_is_read_by_its_id_not_with_the_tasks_other_jobs(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)
    finish(MINUTE, task)
    with CaptureQueriesContext(connection) as queries:
        tick_at(task, MINUTE + timedelta(minutes=1))
    reads = [q["sql"] for q in queries.captured_queries if "j.task_id, j.status, j.id" in q["sql"]]
    assert len(reads) == 1 and "j.id = r." in reads[0]


def test_a_cancelled_remembered_waiting_run_does_not_free_the_task(add_task):
    task = add_task(overlap="buffer_one")
    tick_at(task, MINUTE)
    Job.objects.filter(task=task).update(status="running")
    tick_at(task, MINUTE + timedelta(minutes=1))
    waiting = job_at(task, MINUTE + timedelta(minutes=1))
    job_cancel(actor="tests", tenant=task.tenant, job_id=waiting.id)
    tick_at(task, MINUTE + timedelta(minutes=2))
    assert job_at(task, MINUTE + timedelta(minutes=2)).status == "waiting"  # behind the first


def test_a_remembered_run_missing_from_the_table_sends_the_tick_to_read_the_task_whole(add_task):
    task = add_task(overlap="skip")
    tick_at(task, MINUTE)  # pending, unfinished
    Task.objects.filter(id=task.id).update(overlap_job_id=new_id())  # a run never inserted
    assert tick_at(task, MINUTE + timedelta(minutes=1)) == 0
