"""POST /v1/tasks/{id}/run: one run now, outside the schedule."""

from datetime import UTC, datetime, timedelta

from jobs.models import Job
from jobs.run_now import insert_run, run_instant
from tasks.models import Task


def run_now(api, task_id: str, **headers):
    return api.post(f"/v1/tasks/{task_id}/run", **headers)


def test_run_now_answers_202_with_a_pending_job_due_now(api, make_task):
    task = make_task()
    before = datetime.now(UTC)
    response = run_now(api, task["id"])
    assert response.status_code == 202, response.content
    job = response.json()
    assert job["task_id"] == task["id"] and job["status"] == "pending"
    scheduled = datetime.fromisoformat(job["scheduled_at"])
    assert before - timedelta(milliseconds=1) <= scheduled <= datetime.now(UTC)
    assert job["next_attempt_at"] == job["scheduled_at"]
    assert response["Location"].endswith(f"/v1/jobs/{job['id']}")


def test_the_run_now_body_is_the_job_as_get_job_shows_it(api, make_task):
    job = run_now(api, make_task()["id"]).json()
    assert api.get(f"/v1/jobs/{job['id']}").json() == job


def test_the_run_now_job_takes_the_tasks_delivery_settings(api, make_task):
    task = make_task(priority=3, max_attempts=7, timeout_seconds=12, backoff_base_seconds=4)
    job = Job.objects.get(id=run_now(api, task["id"]).json()["id"])
    assert (job.priority, job.max_attempts, job.timeout_seconds, job.backoff_base_seconds) == (
        3,
        7,
        12,
        4,
    )


def test_each_run_now_is_a_job_of_its_own(api, make_task):
    task = make_task()
    first, second = run_now(api, task["id"]).json(), run_now(api, task["id"]).json()
    assert first["id"] != second["id"]
    assert first["scheduled_at"] != second["scheduled_at"]


def test_a_repeat_with_the_same_idempotency_key_replays_the_first_run(api, make_task):
    task = make_task()
    first = run_now(api, task["id"], HTTP_IDEMPOTENCY_KEY="run-1")
    again = run_now(api, task["id"], HTTP_IDEMPOTENCY_KEY="run-1")
    assert again.status_code == 202 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Job.objects.filter(task_id=task["id"]).count() == 1


def test_idempotency_keys_of_run_now_compare_exactly(api, make_task):
    task = make_task()
    first = run_now(api, task["id"], HTTP_IDEMPOTENCY_KEY="run-1").json()
    other = run_now(api, task["id"], HTTP_IDEMPOTENCY_KEY="RUN-1").json()
    assert other["id"] != first["id"]


def test_an_idempotency_key_used_to_run_another_task_is_422(api, make_task):
    run_now(api, make_task()["id"], HTTP_IDEMPOTENCY_KEY="run-1")
    response = run_now(api, make_task()["id"], HTTP_IDEMPOTENCY_KEY="run-1")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"


def test_run_now_of_another_tenants_task_is_404(other_api, make_task):
    response = run_now(other_api, make_task()["id"])
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_run_now_of_an_unknown_task_is_404(api):
    assert run_now(api, "01a2292c-0fbc-7f00-bf2d-4eb9407788b4").status_code == 404


def test_run_now_of_a_deleted_task_is_409(api, make_task):
    task = make_task()
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH="*")
    response = run_now(api, task["id"])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "task_deleted"


def test_run_now_of_a_paused_task_makes_a_pending_job(api, make_task):
    task = make_task()
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*")
    response = run_now(api, task["id"])
    assert response.status_code == 202
    assert Job.objects.get(id=response.json()["id"]).status == "pending"


def test_pausing_a_task_holds_its_scheduled_jobs_but_not_its_run_now_job(api, make_task):
    task = make_task()
    scheduled = Job.objects.create(
        tenant_id=Task.objects.get(id=task["id"]).tenant_id,
        task_id=task["id"],
        scheduled_at=datetime(2030, 1, 1, tzinfo=UTC),
        next_attempt_at=datetime(2030, 1, 1, tzinfo=UTC),
    )
    by_hand = run_now(api, task["id"]).json()
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*")
    assert Job.objects.get(id=scheduled.id).status == "held"
    assert Job.objects.get(id=by_hand["id"]).status == "pending"


def test_run_now_of_a_completed_one_off_task_runs_it_again(api, make_task, tenant):
    task = make_task()
    Task.objects.filter(id=task["id"]).update(status="completed", next_run_at=None)
    assert run_now(api, task["id"]).status_code == 202


def test_run_now_is_rate_limited_like_task_creation(api, make_task, tenant):
    task = make_task()
    tenant.create_rate, tenant.create_burst = 1, 1
    tenant.save()
    run_now(api, task["id"])
    response = run_now(api, task["id"])
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1


def test_a_run_now_instant_is_never_on_a_whole_second_where_cron_runs_fall():
    task = Task(run_at=None, next_run_at=None)
    at = run_instant(datetime(2030, 1, 1, 9, 0, 0, 400, tzinfo=UTC), task)
    assert at == datetime(2030, 1, 1, 9, 0, 0, 1000, tzinfo=UTC)


def test_a_run_now_instant_steps_past_the_one_off_run_of_the_task():
    run_at = datetime(2030, 1, 1, 9, 0, 0, 250_000, tzinfo=UTC)
    task = Task(run_at=run_at, next_run_at=run_at)
    assert run_instant(run_at, task) == run_at + timedelta(milliseconds=1)


def test_a_run_now_on_the_instant_of_an_existing_run_takes_the_next_millisecond(add_task):
    at = datetime(2030, 1, 1, 9, 0, 0, 250_000, tzinfo=UTC)
    task = add_task()
    Job.objects.create(tenant=task.tenant, task=task, scheduled_at=at, next_attempt_at=at)
    assert insert_run(task, at).scheduled_at == at + timedelta(milliseconds=1)
