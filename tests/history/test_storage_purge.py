"""The archiver purges finished tasks and run now keys after their retention, in bounded
batches, and never a task a job still refers to."""

from datetime import UTC, datetime, timedelta

import pytest

from execution.archiver_process import ArchiverProcess
from jobs.models import FailureAlert, Job, RunNowKey
from jobs.storage_purge import StoragePurge
from scheduler_site.ids import new_id
from tasks.models import Task
from tests.conftest import cron_task

pytestmark = pytest.mark.django_db
NOW = datetime.now(UTC)
DAY = timedelta(days=1)


@pytest.fixture
def finished_task(add_task, settings):
    settings.TASK_RETENTION_DAYS = 7

    def make(status: str, *, changed_days_ago: float, **fields) -> Task:
        task = add_task(status=status, next_run_at=None, **fields)
        Task.objects.filter(id=task.id).update(updated_at=NOW - changed_days_ago * DAY)
        return task

    return make


def kept(*tasks: Task) -> set:
    return set(Task.objects.filter(id__in=[t.id for t in tasks]).values_list("id", flat=True))


def job_of(task: Task, status: str) -> Job:
    return Job.objects.create(
        tenant_id=task.tenant_id, task=task, scheduled_at=NOW, next_attempt_at=NOW, status=status
    )


def test_deleted_and_completed_tasks_past_the_retention_are_purged(finished_task):
    tasks = [finished_task(s, changed_days_ago=8) for s in ("deleted", "completed")]
    assert StoragePurge().run(now=NOW) == (2, 0)
    assert kept(*tasks) == set()


def test_finished_tasks_within_the_retention_remain(finished_task):
    tasks = [finished_task(s, changed_days_ago=6) for s in ("deleted", "completed")]
    assert StoragePurge().run(now=NOW) == (0, 0)
    assert kept(*tasks) == {t.id for t in tasks}


def test_active_and_paused_tasks_are_never_purged(finished_task):
    tasks = [finished_task(s, changed_days_ago=100) for s in ("active", "paused")]
    StoragePurge().run(now=NOW)
    assert kept(*tasks) == {t.id for t in tasks}


def test_a_completed_one_off_is_kept_for_the_retention_after_its_run(finished_task):
    # Made long ago for a run two days back: the tick completed it without an update.
    task = finished_task("completed", changed_days_ago=30, cron=None, run_at=NOW - 2 * DAY)
    StoragePurge().run(now=NOW)
    assert kept(task) == {task.id}
    StoragePurge().run(now=NOW + 6 * DAY)
    assert kept(task) == set()


@pytest.mark.parametrize("job_status", ["pending", "held", "running", "dead", "succeeded"])
def test_a_task_whose_job_is_still_in_the_queue_stays(finished_task, job_status):
    task = finished_task("deleted", changed_days_ago=30)
    job_of(task, job_status)
    assert StoragePurge().run(now=NOW) == (0, 0)
    assert kept(task) == {task.id}


def test_a_task_is_purged_once_its_last_job_has_been_archived(finished_task):
    task = finished_task("completed", changed_days_ago=30)
    job = job_of(task, "succeeded")
    purge = StoragePurge()
    purge.run(now=NOW)
    Job.objects.filter(id=job.id).delete()  # what the archiver's move does
    purge.run(now=NOW)
    assert kept(task) == set()


def test_a_round_purges_at_most_its_batches(finished_task):
    tasks = [finished_task("deleted", changed_days_ago=8 + n / 100) for n in range(7)]
    purge = StoragePurge(batch_size=2, max_batches=2)
    assert purge.run(now=NOW) == (4, 0)
    assert len(kept(*tasks)) == 3
    assert purge.run(now=NOW) == (3, 0)
    assert kept(*tasks) == set()


def test_tasks_waiting_for_their_jobs_are_stepped_over_by_the_next_round(finished_task):
    busy = [finished_task("deleted", changed_days_ago=20) for _ in range(2)]
    for task in busy:
        job_of(task, "dead")
    free = finished_task("deleted", changed_days_ago=10)
    purge = StoragePurge(batch_size=2, max_batches=1)
    assert purge.run(now=NOW) == (0, 0)  # its one batch found only the busy two
    assert purge.run(now=NOW) == (1, 0)
    assert kept(free, *busy) == {t.id for t in busy}


def add_key(tenant, hours_ago: float) -> RunNowKey:
    key = RunNowKey.objects.create(
        tenant_id=tenant.id, idempotency_key=str(new_id()), task_id=new_id(), job_id=new_id()
    )
    RunNowKey.objects.filter(id=key.id).update(created_at=NOW - timedelta(hours=hours_ago))
    return key


def test_run_now_keys_past_their_retention_are_purged_in_bounded_batches(tenant, settings):
    settings.RUN_NOW_KEY_RETENTION_HOURS = 24
    fresh = add_key(tenant, 23)
    for _ in range(5):
        add_key(tenant, 25)
    assert StoragePurge(batch_size=2, max_batches=2).run(now=NOW) == (0, 4)
    assert StoragePurge(batch_size=2, max_batches=2).run(now=NOW) == (0, 1)
    assert list(RunNowKey.objects.values_list("id", flat=True)) == [fresh.id]


def test_the_archiver_purges_on_its_turn(finished_task):
    task = finished_task("deleted", changed_days_ago=8)
    ArchiverProcess(interval=1).run_once()
    assert kept(task) == set()


def test_rounds_of_create_and_delete_leave_no_rows_after_the_retention(api, tenant, settings):
    settings.TASK_RETENTION_DAYS = 7
    tenant.max_tasks = 10
    tenant.save()
    for _ in range(6):
        ids = [api.post("/v1/tasks", cron_task(), format="json").json()["id"] for _ in range(10)]
        for task_id in ids:
            assert api.delete(f"/v1/tasks/{task_id}", HTTP_IF_MATCH="*").status_code == 204
    assert Task.objects.count() == 60
    StoragePurge().run(now=NOW + 8 * DAY)
    assert Task.objects.count() == 0


def test_a_purged_task_takes_its_failure_alert_pace_row_with_it(finished_task):
    gone = finished_task("deleted", changed_days_ago=8)
    stays = finished_task("deleted", changed_days_ago=1)
    for task in (gone, stays):
        FailureAlert.objects.create(task_id=task.id, tenant_id=task.tenant_id, quiet_until=NOW)
    assert StoragePurge().run(now=NOW) == (1, 0)
    assert set(FailureAlert.objects.values_list("task_id", flat=True)) == {stays.id}
