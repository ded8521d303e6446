"""A task's own callbacks never hold its next run: a callback job is no run of the task
(its task_id is its own id), so `overlap: skip` does not see it as unfinished."""

from datetime import timedelta

from jobs.models import Job, JobStatus
from tasks.models import SkippedRun
from tasks.tick import run_tick
from tests.executor.callback_jobs import make_callback
from tests.scheduler.conftest import NOW

MINUTE = NOW.replace(second=0)


def test_a_pending_callback_of_the_last_run_does_not_skip_the_next_run(add_task):
    task = add_task(overlap="skip", next_run_at=MINUTE, on_success_url="https://93.184.216.34/cb")
    earlier = MINUTE - timedelta(minutes=1)
    last = Job.objects.create(
        tenant=task.tenant,
        task=task,
        scheduled_at=earlier,
        next_attempt_at=earlier,
        status=JobStatus.SUCCEEDED,
        finished_at=earlier,
    )
    make_callback(last, task.on_success_url, event="success", status=JobStatus.RUNNING)
    assert run_tick(now=NOW).jobs == 1
    assert Job.objects.filter(task=task, scheduled_at=MINUTE).exists()
    assert not SkippedRun.objects.filter(task_id=task.id).exists()
