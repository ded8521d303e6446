"""A stopped tenant and a paused task make no calls; resuming picks up where they were."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job
from jobs.queue import claim_jobs
from tasks.models import Task
from tasks.services import task_pause, task_resume
from tasks.suspension import tasks_resume_for_tenant
from tasks.tenants import tenant_deactivate, tenant_reactivate
from tasks.tick import run_tick

NOW = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)


def claim_all() -> set:
    batch = claim_jobs(worker_id="w", critical_limit=100, normal_limit=100, lookahead_seconds=0)
    return {job.id for job in batch.jobs}


def pending_job(task, *, due: datetime | None = None) -> Job:
    moment = due or datetime.now(UTC) - timedelta(seconds=1)
    return Job.objects.create(
        tenant=task.tenant, task=task, scheduled_at=moment, next_attempt_at=moment
    )


# --- a stopped tenant ---------------------------------------------------------------------


def test_the_tick_leaves_a_stopped_tenants_due_tasks_as_they_are(add_task, tenant):
    task = add_task(next_run_at=NOW - timedelta(minutes=1))
    tenant_deactivate(actor="tests", tenant=tenant)
    assert run_tick(now=NOW).jobs == 0
    assert Task.objects.get(id=task.id).next_run_at == NOW - timedelta(minutes=1)


def test_the_tick_goes_on_for_other_tenants(add_task, tenant, other_tenant):
    add_task(next_run_at=NOW)
    theirs = add_task(tenant=other_tenant, next_run_at=NOW)
    tenant_deactivate(actor="tests", tenant=tenant)
    run_tick(now=NOW)
    assert list(Job.objects.values_list("task_id", flat=True)) == [theirs.id]


def test_a_resume_whose_tenant_is_stopped_again_leaves_its_tasks_suspended(add_task, tenant):
    # The stop lands between the resume's tenant row and its batches of tasks.
    task = add_task(next_run_at=NOW - timedelta(minutes=1))
    tenant_deactivate(actor="tests", tenant=tenant)
    assert tasks_resume_for_tenant(tenant_id=tenant.id, now=NOW) == 0
    assert Task.objects.get(id=task.id).status == "suspended"


def test_a_resumed_tenants_missed_runs_follow_the_misfire_policy(add_task, tenant):
    catch_up = add_task(next_run_at=NOW - timedelta(minutes=3), misfire_policy="run_all")
    once = add_task(next_run_at=NOW - timedelta(minutes=3), misfire_policy="run_once")
    tenant_deactivate(actor="tests", tenant=tenant)
    run_tick(now=NOW)
    tenant_reactivate(actor="tests", tenant=tenant, now=NOW)  # the same clock as the ticks
    for _ in range(5):
        run_tick(now=NOW)
    assert Job.objects.filter(task=catch_up).count() == 4  # minutes -3, -2, -1 and 0
    assert Job.objects.filter(task=once).count() == 1


def test_the_claim_leaves_a_stopped_tenants_jobs_pending(add_task, tenant, other_tenant):
    mine = pending_job(add_task())
    theirs = pending_job(add_task(tenant=other_tenant))
    tenant_deactivate(actor="tests", tenant=tenant)
    assert claim_all() == {str(theirs.id)}
    stored = Job.objects.get(id=mine.id)
    assert (stored.status, stored.attempt) == ("pending", 0)


def test_a_resumed_tenants_jobs_are_claimed_again(add_task, tenant):
    job = pending_job(add_task())
    tenant_deactivate(actor="tests", tenant=tenant)
    claim_all()
    tenant_reactivate(actor="tests", tenant=tenant)
    assert claim_all() == {str(job.id)}


# --- a paused task --------------------------------------------------------------------------


def test_pausing_holds_the_tasks_waiting_jobs_retries_included(add_task, tenant):
    task = add_task()
    due_now = pending_job(task)
    retry_later = pending_job(task, due=datetime.now(UTC) + timedelta(hours=3))
    task_pause(actor="tests", tenant=tenant, task_id=task.id, expected_version=None)
    statuses = set(Job.objects.filter(task=task).values_list("status", flat=True))
    assert statuses == {"held"}
    assert claim_all() == set()
    assert {due_now.id, retry_later.id} == set(Job.objects.values_list("id", flat=True))


def test_resuming_releases_held_jobs_at_their_own_times(add_task, tenant):
    task = add_task()
    later = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=3)
    retry_later = pending_job(task, due=later)
    task_pause(actor="tests", tenant=tenant, task_id=task.id, expected_version=None)
    task_resume(actor="tests", tenant=tenant, task_id=task.id, expected_version=None)
    stored = Job.objects.get(id=retry_later.id)
    assert (stored.status, stored.next_attempt_at) == ("pending", later)
