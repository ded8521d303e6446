"""The job API: one job, a task's runs from both stores, the DLQ, retry and cancel."""

from datetime import UTC, datetime, timedelta

import pytest

from history.records import HistoryUnavailable
from history.sql_store import SqlHistoryStore
from jobs.archive import archive_batch, job_record
from jobs.models import Job, JobAttempt

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def task(make_task):
    return make_task(cron="* * * * *")


@pytest.fixture
def add_job(tenant, task):
    def add(minutes: int, status: str = "succeeded", **fields) -> Job:
        moment = T0 + timedelta(minutes=minutes)
        return Job.objects.create(
            tenant=tenant,
            task_id=task["id"],
            scheduled_at=moment,
            next_attempt_at=moment,
            status=status,
            attempt=fields.pop("attempt", 1),
            finished_at=None if status in ("pending", "running") else moment,
            **fields,
        )

    return add


def archive(*jobs: Job) -> None:
    """Put jobs in the history and take them out of the queue, as the archiver does."""
    SqlHistoryStore().write([job_record(job) for job in jobs])
    Job.objects.filter(id__in=[job.id for job in jobs]).delete()


def ids(response) -> list[str]:
    return [item["id"] for item in response.json()["results"]]


# --- GET /v1/jobs/{id} ---------------------------------------------------------------------


def test_get_job_from_the_queue(api, add_job):
    job = add_job(0, "pending")
    body = api.get(f"/v1/jobs/{job.id}").json()
    assert body["id"] == str(job.id) and body["status"] == "pending"
    assert set(body) >= {
        "task_id",
        "scheduled_at",
        "attempt",
        "max_attempts",
        "priority",
        "next_attempt_at",
        "started_at",
        "finished_at",
        "http_status",
        "error",
        "response_body",
        "duration_ms",
    }


def test_get_job_from_the_history(api, add_job):
    job = add_job(0)
    archive(job)
    response = api.get(f"/v1/jobs/{job.id}")
    assert response.status_code == 200 and response.json()["status"] == "succeeded"


def test_get_job_prefers_the_queue_when_in_both(api, add_job):
    job = add_job(0, "dead")
    SqlHistoryStore().write([job_record(job)])
    Job.objects.filter(id=job.id).update(status="pending")
    assert api.get(f"/v1/jobs/{job.id}").json()["status"] == "pending"


def test_get_unknown_job_is_404(api):
    assert api.get("/v1/jobs/01a22754-0f49-70d3-8cd6-bf449c22e4ef").status_code == 404
    assert api.get("/v1/jobs/nope").status_code == 404


# --- GET /v1/tasks/{id}/jobs ------------------------------------------------------------------


def test_task_runs_merge_both_stores_newest_first(api, task, add_job):
    jobs = [add_job(minute) for minute in range(6)]
    archive(*jobs[:4])
    response = api.get(f"/v1/tasks/{task['id']}/jobs")
    assert ids(response) == [str(job.id) for job in reversed(jobs)]


def test_an_old_dead_job_still_in_the_queue_sorts_among_archived_ones(api, task, add_job):
    old_dead = add_job(0, "dead")
    newer = [add_job(minute) for minute in (1, 2, 3)]
    archive(*newer)
    assert ids(api.get(f"/v1/tasks/{task['id']}/jobs")) == [
        str(newer[2].id),
        str(newer[1].id),
        str(newer[0].id),
        str(old_dead.id),
    ]


def test_a_job_in_both_stores_appears_once_as_the_queue_has_it(api, task, add_job):
    job = add_job(0, "dead")
    SqlHistoryStore().write([job_record(job)])
    Job.objects.filter(id=job.id).update(status="pending")
    results = api.get(f"/v1/tasks/{task['id']}/jobs").json()["results"]
    assert [(r["id"], r["status"]) for r in results] == [(str(job.id), "pending")]


def test_task_runs_page_with_a_cursor_across_both_stores(api, task, add_job):
    jobs = [add_job(minute) for minute in range(9)]
    archive(*jobs[::2])
    SqlHistoryStore().write([job_record(jobs[1])])  # also a duplicate in both stores
    seen, url = [], f"/v1/tasks/{task['id']}/jobs?limit=2"
    while url:
        body = api.get(url).json()
        seen += [item["id"] for item in body["results"]]
        url = body["next"]
    assert seen == [str(job.id) for job in reversed(jobs)]


def test_a_failing_history_store_makes_the_task_runs_503(api, task, add_job, monkeypatch):
    add_job(0)

    class Down(SqlHistoryStore):
        def task_runs(self, **kwargs):
            raise HistoryUnavailable("down")

    monkeypatch.setattr("jobs.selectors.history_reader", lambda: Down())
    response = api.get(f"/v1/tasks/{task['id']}/jobs")
    assert response.status_code == 503
    assert "history" in response.json()["error"]["message"]


def test_a_failing_history_store_makes_a_lookup_of_an_archived_job_503(api, monkeypatch):
    class Down(SqlHistoryStore):
        def get(self, **kwargs):
            raise HistoryUnavailable("down")

    monkeypatch.setattr("jobs.selectors.history_reader", lambda: Down())
    assert api.get("/v1/jobs/01a22754-0f49-70d3-8cd6-bf449c22e4ef").status_code == 503


def test_runs_of_a_deleted_task_are_404(api, task):
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"')
    assert api.get(f"/v1/tasks/{task['id']}/jobs").status_code == 404


def test_task_runs_with_a_bad_cursor_is_400(api, task):
    assert api.get(f"/v1/tasks/{task['id']}/jobs?cursor=eyJ4IjoxfQ").status_code == 400


# --- DLQ, retry, cancel ---------------------------------------------------------------------


def test_dlq_lists_the_tenants_dead_jobs_newest_first(api, add_job):
    dead = [add_job(minute, "dead") for minute in range(3)]
    add_job(5, "succeeded")
    assert ids(api.get("/v1/dlq")) == [str(job.id) for job in reversed(dead)]


def test_dlq_pages_with_a_cursor(api, add_job):
    dead = [add_job(minute, "dead") for minute in range(5)]
    first = api.get("/v1/dlq?limit=3").json()
    second = api.get(first["next"]).json()
    assert [i["id"] for i in first["results"] + second["results"]] == [
        str(job.id) for job in reversed(dead)
    ]
    assert second["next"] is None


def test_retry_puts_a_dead_job_back_with_the_same_id_and_a_fresh_budget(api, add_job, task):
    job = add_job(0, "dead", attempt=5, max_attempts=5)
    response = api.post(f"/v1/jobs/{job.id}/retry")
    assert response.status_code == 202
    stored = Job.objects.get(id=job.id)
    assert stored.status == "pending" and stored.scheduled_at == job.scheduled_at
    assert stored.attempt == 5 and stored.max_attempts == 5 + task["max_attempts"]
    assert stored.finished_at is None


@pytest.mark.parametrize("status", ["pending", "running", "succeeded", "cancelled"])
def test_retry_of_a_job_that_is_not_dead_is_409(api, add_job, status):
    job = add_job(0, status)
    assert api.post(f"/v1/jobs/{job.id}/retry").status_code == 409
    assert Job.objects.get(id=job.id).status == status


def test_retry_of_an_archived_job_is_404(api, add_job):
    job = add_job(0, "dead")
    archive(job)
    assert api.post(f"/v1/jobs/{job.id}/retry").status_code == 404


def test_cancel_of_a_pending_job_is_202(api, add_job):
    job = add_job(0, "pending")
    assert api.post(f"/v1/jobs/{job.id}/cancel").status_code == 202
    stored = Job.objects.get(id=job.id)
    assert stored.status == "cancelled" and stored.finished_at is not None


@pytest.mark.parametrize("status", ["running", "succeeded", "dead", "cancelled"])
def test_cancel_of_a_job_that_is_not_pending_is_409(api, add_job, status):
    job = add_job(0, status)
    assert api.post(f"/v1/jobs/{job.id}/cancel").status_code == 409


def test_cancel_of_an_unknown_job_is_404(api):
    assert api.post("/v1/jobs/01a22754-0f49-70d3-8cd6-bf449c22e4ef/cancel").status_code == 404


# --- isolation --------------------------------------------------------------------------------

JOB_ROUTES = [
    ("get", "/v1/jobs/{job}"),
    ("post", "/v1/jobs/{job}/retry"),
    ("post", "/v1/jobs/{job}/cancel"),
    ("get", "/v1/tasks/{task}/jobs"),
]


@pytest.mark.parametrize("archived", [False, True])
@pytest.mark.parametrize("method, route", JOB_ROUTES)
def test_other_tenants_job_is_404_on_every_job_route(
    other_api, add_job, task, method, route, archived
):
    job = add_job(0, "dead")
    if archived:
        archive(job)
    response = getattr(other_api, method)(route.format(job=job.id, task=task["id"]))
    assert response.status_code == 404
    if not archived:
        assert Job.objects.get(id=job.id).status == "dead"


def test_other_tenants_dead_jobs_are_not_in_the_dlq(other_api, add_job):
    add_job(0, "dead")
    assert other_api.get("/v1/dlq").json()["results"] == []


def test_retry_of_a_dead_job_whose_task_was_deleted_is_409(api, add_job, task):
    job = add_job(0, "dead")
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"')
    response = api.post(f"/v1/jobs/{job.id}/retry")
    assert response.status_code == 409
    assert Job.objects.get(id=job.id).status == "dead"


# --- GET /v1/jobs/{id}/attempts ------------------------------------------------------------


def add_attempts(job: Job, *outcomes: str) -> None:
    for number, outcome in enumerate(outcomes, start=1):
        JobAttempt.objects.create(
            job_id=job.id,
            attempt=number,
            started_at=T0 + timedelta(seconds=number),
            outcome=outcome,
            duration_ms=10,
            http_status=200 if outcome == "succeeded" else 500,
            error=None if outcome == "succeeded" else "HTTP 500",
            response_head="ok",
        )


def test_attempts_of_a_job_in_the_queue_come_first_call_first(api, add_job):
    job = add_job(0, "succeeded", attempt=3)
    add_attempts(job, "retry", "retry", "succeeded")
    body = api.get(f"/v1/jobs/{job.id}/attempts").json()
    assert [a["attempt"] for a in body["results"]] == [1, 2, 3]
    assert body["results"][0] == {
        "attempt": 1,
        "started_at": "2026-05-01T09:00:01Z",
        "outcome": "retry",
        "duration_ms": 10,
        "http_status": 500,
        "error": "HTTP 500",
        "response_head": "ok",
    }
    assert body["next"] is None


def test_attempts_of_an_archived_job_come_from_its_history(api, add_job):
    job = add_job(0, "succeeded", attempt=2)
    add_attempts(job, "retry", "succeeded")
    archive_batch(now=datetime.now(UTC) + timedelta(days=365), store=SqlHistoryStore())
    assert not Job.objects.filter(id=job.id).exists()
    body = api.get(f"/v1/jobs/{job.id}/attempts").json()
    assert [a["outcome"] for a in body["results"]] == ["retry", "succeeded"]


def test_attempts_of_another_tenants_job_are_not_found(other_api, add_job):
    job = add_job(0, "succeeded")
    add_attempts(job, "succeeded")
    response = other_api.get(f"/v1/jobs/{job.id}/attempts")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_job_never_called_has_no_attempts(api, add_job):
    job = add_job(0, "pending")
    assert api.get(f"/v1/jobs/{job.id}/attempts").json()["results"] == []
