"""`?label=key:value` on the task list, a task's runs and the DLQ (repeatable: all match)."""

from datetime import UTC, datetime, timedelta

import pytest

from history.sql_store import SqlHistoryStore
from jobs.archive import job_record
from jobs.models import Job

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def ids(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()["results"]]


@pytest.fixture
def add_job(tenant):
    def add(task_id, minutes: int, status: str = "dead", labels=None) -> Job:
        moment = T0 + timedelta(minutes=minutes)
        return Job.objects.create(
            tenant=tenant,
            task_id=task_id,
            scheduled_at=moment,
            next_attempt_at=moment,
            status=status,
            attempt=1,
            finished_at=moment,
            labels=labels,
        )

    return add


def test_the_task_list_keeps_the_tasks_with_the_label(api, make_task):
    prod = make_task(labels={"env": "prod"})
    make_task(labels={"env": "dev"})
    make_task()
    assert ids(api.get("/v1/tasks?label=env:prod")) == [prod["id"]]


def test_repeated_labels_must_all_match(api, make_task):
    both = make_task(labels={"env": "prod", "team": "billing"})
    make_task(labels={"env": "prod", "team": "search"})
    assert ids(api.get("/v1/tasks?label=env:prod&label=team:billing")) == [both["id"]]


def test_a_label_value_matches_exactly(api, make_task):
    make_task(labels={"env": "Prod"})
    make_task(labels={"env": "prod2"})
    assert ids(api.get("/v1/tasks?label=env:prod")) == []


def test_a_trailing_space_in_a_label_value_is_not_matched(api, make_task):
    make_task(labels={"env": "prod "})
    assert ids(api.get("/v1/tasks?label=env:prod")) == []


def test_a_key_of_digits_and_a_value_with_colons_match(api, make_task):
    task = make_task(labels={"42": "a:b"})
    assert ids(api.get("/v1/tasks?label=42:a:b")) == [task["id"]]


@pytest.mark.parametrize("raw", ["env", "Env:prod", "bad key:x", ":x", "env:" + "x" * 256])
def test_a_malformed_label_filter_is_a_400_naming_label(api, raw):
    response = api.get("/v1/tasks", {"label": raw})
    assert response.status_code == 400 and "label" in response.json()["error"]["fields"]


def test_one_key_with_two_values_is_a_400_naming_label(api):
    response = api.get("/v1/tasks?label=env:a&label=env:b")
    assert response.status_code == 400 and "label" in response.json()["error"]["fields"]


@pytest.mark.parametrize("route", ["/v1/tasks", "/v1/dlq"])
def test_an_unknown_query_parameter_is_a_400_naming_it(api, route):
    response = api.get(route, {"labels": "env:prod"})
    assert response.status_code == 400 and "labels" in response.json()["error"]["fields"]


def test_a_tasks_runs_keep_the_jobs_with_the_label(api, make_task, add_job):
    task = make_task(cron="* * * * *")
    prod = add_job(task["id"], 0, "succeeded", {"env": "prod"})
    add_job(task["id"], 1, "succeeded", {"env": "dev"})
    add_job(task["id"], 2, "succeeded")
    assert ids(api.get(f"/v1/tasks/{task['id']}/jobs?label=env:prod")) == [str(prod.id)]


def test_a_tasks_runs_refuse_a_malformed_label(api, make_task):
    task = make_task()
    response = api.get(f"/v1/tasks/{task['id']}/jobs?label=nope")
    assert response.status_code == 400 and "label" in response.json()["error"]["fields"]


def test_archived_runs_match_no_label_filter(api, make_task, add_job):
    """The history keeps no labels: with a filter, only the queue's runs are read."""
    task = make_task(cron="* * * * *")
    old = add_job(task["id"], 0, "succeeded", {"env": "prod"})
    SqlHistoryStore().write([job_record(old)])
    Job.objects.filter(id=old.id).delete()
    assert ids(api.get(f"/v1/tasks/{task['id']}/jobs")) == [str(old.id)]
    assert ids(api.get(f"/v1/tasks/{task['id']}/jobs?label=env:prod")) == []


def test_the_dlq_keeps_the_dead_jobs_with_the_label(api, make_task, add_job):
    task = make_task(cron="* * * * *")
    prod = add_job(task["id"], 0, labels={"env": "prod"})
    add_job(task["id"], 1, labels={"env": "dev"})
    add_job(task["id"], 2, "succeeded", labels={"env": "prod"})
    assert ids(api.get("/v1/dlq?label=env:prod")) == [str(prod.id)]


def test_the_labelled_dlq_pages_newest_first(api, make_task, add_job):
    task = make_task(cron="* * * * *")
    jobs = [add_job(task["id"], minute, labels={"env": "prod"}) for minute in range(3)]
    first = api.get("/v1/dlq?label=env:prod&limit=2").json()
    second = api.get(first["next"]).json()
    seen = [item["id"] for item in first["results"] + second["results"]]
    assert seen == sorted((str(job.id) for job in jobs), reverse=True)


def test_the_dlq_refuses_a_malformed_label(api):
    response = api.get("/v1/dlq?label=no-colon")
    assert response.status_code == 400 and "label" in response.json()["error"]["fields"]


def test_another_tenants_labelled_jobs_never_show(api, other_api, make_task, add_job):
    task = make_task(cron="* * * * *", labels={"env": "prod"})
    add_job(task["id"], 0, labels={"env": "prod"})
    assert ids(other_api.get("/v1/dlq?label=env:prod")) == []
    assert ids(other_api.get("/v1/tasks?label=env:prod")) == []
