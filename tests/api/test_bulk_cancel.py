"""POST /v1/jobs/cancel: every pending, held or waiting job of the tenant a filter matches
is cancelled, as a single cancel would."""

import pytest

from jobs.models import CALLBACK_PRIORITY
from tests.api.bulk_jobs import add_job, at, statuses


def cancel(api, **body):
    return api.post("/v1/jobs/cancel", body, format="json")


@pytest.fixture
def task(add_task):
    return add_task()


def test_cancel_by_task_id(api, task, add_task):
    mine, other = add_job(task, 0, "pending"), add_job(add_task(), 0, "pending")
    response = cancel(api, task_id=str(task.id))
    assert response.status_code == 200, response.content
    assert response.json() == {"count": 1, "refused": {}}
    assert statuses(mine, other) == ["cancelled", "pending"]


def test_pending_held_and_waiting_jobs_are_cancelled(api, task):
    jobs = [add_job(task, 0, "pending"), add_job(task, 1, "held"), add_job(task, 2, "waiting")]
    assert cancel(api, task_id=str(task.id)).json()["count"] == 3
    assert statuses(*jobs) == ["cancelled"] * 3


def test_running_and_finished_jobs_are_left_alone(api, task):
    running = add_job(task, 0, "running")
    dead, done = add_job(task, 1, "dead"), add_job(task, 2, "succeeded")
    assert cancel(api, task_id=str(task.id)).json()["count"] == 0
    assert statuses(running, dead, done) == ["running", "dead", "succeeded"]


def test_cancelling_the_unfinished_run_releases_the_buffered_one(api, task):
    pending, waiting = add_job(task, 0, "pending"), add_job(task, 1, "waiting")
    assert cancel(api, ids=[str(pending.id)]).json()["count"] == 1
    assert statuses(pending, waiting) == ["cancelled", "pending"]


def test_cancel_by_scheduled_range(api, task):
    early, middle, late = (add_job(task, minute, "pending") for minute in (0, 10, 20))
    assert cancel(api, scheduled_after=at(0), scheduled_before=at(20)).json()["count"] == 1
    assert statuses(early, middle, late) == ["pending", "cancelled", "pending"]


def test_cancel_by_error_text(api, task):
    retrying = add_job(task, 0, "pending", error="HTTP 503 from the endpoint")
    fresh = add_job(task, 1, "pending")
    assert cancel(api, error_contains="http 503").json()["count"] == 1
    assert statuses(retrying, fresh) == ["cancelled", "pending"]


def test_cancel_by_label(api, task):
    prod = add_job(task, 0, "pending", labels={"env": "prod"})
    unlabelled = add_job(task, 1, "pending")
    assert cancel(api, label=["env:prod"]).json()["count"] == 1
    assert statuses(prod, unlabelled) == ["cancelled", "pending"]


def test_cancel_by_ids(api, task):
    first, second = add_job(task, 0, "pending"), add_job(task, 1, "pending")
    assert cancel(api, ids=[str(second.id)]).json()["count"] == 1
    assert statuses(first, second) == ["pending", "cancelled"]


def test_callback_jobs_are_never_matched(api, task):
    callback = add_job(task, 0, "pending", priority=CALLBACK_PRIORITY)
    assert cancel(api, scheduled_before=at(60)).json()["count"] == 0
    assert statuses(callback) == ["pending"]


def test_dry_run_counts_without_cancelling(api, task):
    jobs = [add_job(task, minute, "pending") for minute in range(2)]
    assert cancel(api, task_id=str(task.id), dry_run=True).json()["count"] == 2
    assert statuses(*jobs) == ["pending", "pending"]


def test_another_tenants_jobs_are_never_counted_or_cancelled(other_api, task):
    job = add_job(task, 0, "pending")
    for body in ({"ids": [str(job.id)]}, {"task_id": str(task.id)}, {"scheduled_before": at(9)}):
        assert other_api.post("/v1/jobs/cancel", body, format="json").json()["count"] == 0
    assert (
        other_api.post(
            "/v1/jobs/cancel", {"ids": [str(job.id)], "dry_run": True}, format="json"
        ).json()["count"]
        == 0
    )
    assert statuses(job) == ["pending"]


def test_cancel_is_rate_limited_like_creates(api, task, tenant):
    tenant.create_rate, tenant.create_burst = 1, 1
    tenant.save()
    assert cancel(api, task_id=str(task.id), dry_run=True).status_code == 200
    response = cancel(api, task_id=str(task.id))
    assert response.status_code == 429 and int(response["Retry-After"]) >= 1


def test_cancel_by_label_leaves_a_value_with_trailing_spaces_alone(api, task):
    job = add_job(task, 0, "pending", labels={"env": "prod  "})
    response = cancel(api, label="env:prod")
    assert response.json()["count"] == 0
    assert statuses(job) == ["pending"]
