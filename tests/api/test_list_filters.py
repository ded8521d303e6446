"""The filters users try on the lists: `GET /v1/tasks?name=` (exactly that name) and
`GET /v1/dlq?task_id=` (one task's dead jobs)."""

from datetime import UTC, datetime

import pytest

from jobs.models import Job

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def names(response) -> list[str]:
    return [task["name"] for task in response.json()["results"]]


def test_tasks_by_name_lists_only_that_name(api, make_task):
    make_task(name="nightly")
    make_task(name="weekly")
    make_task(name="nightly")
    assert names(api.get("/v1/tasks?name=nightly")) == ["nightly", "nightly"]


def test_tasks_by_name_matches_case_exactly(api, make_task):
    make_task(name="Nightly")
    assert names(api.get("/v1/tasks?name=nightly")) == []


def test_tasks_by_name_of_no_task_is_an_empty_page(api, make_task):
    make_task(name="nightly")
    response = api.get("/v1/tasks?name=night")
    assert response.status_code == 200 and response.json()["results"] == []


def test_tasks_by_name_pages_with_the_filter_kept(api, make_task):
    for _ in range(3):
        make_task(name="nightly")
    make_task(name="weekly")
    first = api.get("/v1/tasks?name=nightly&limit=2").json()
    assert len(first["results"]) == 2 and "name=nightly" in first["next"]
    rest = api.get(first["next"]).json()
    assert [t["name"] for t in rest["results"]] == ["nightly"] and rest["next"] is None


@pytest.fixture
def dead_job(tenant):
    def make(task_id: str, minute: int = 0, owner=None) -> Job:
        at = T0.replace(minute=minute)
        return Job.objects.create(
            tenant=owner or tenant,
            task_id=task_id,
            scheduled_at=at,
            next_attempt_at=at,
            status="dead",
            finished_at=at,
        )

    return make


def test_dlq_by_task_lists_only_that_tasks_dead_jobs(api, make_task, dead_job):
    first, second = make_task()["id"], make_task()["id"]
    mine = dead_job(first)
    dead_job(second)
    response = api.get(f"/v1/dlq?task_id={first}")
    assert [job["id"] for job in response.json()["results"]] == [str(mine.id)]


def test_dlq_by_task_pages(api, make_task, dead_job):
    task = make_task()["id"]
    jobs = [dead_job(task, minute) for minute in range(3)]
    dead_job(make_task()["id"])
    first = api.get(f"/v1/dlq?task_id={task}&limit=2").json()
    rest = api.get(first["next"]).json()
    seen = [job["id"] for job in first["results"] + rest["results"]]
    assert sorted(seen) == sorted(str(job.id) for job in jobs)


def test_dlq_by_task_of_another_tenants_task_is_empty(api, other_api, other_tenant, dead_job):
    theirs = other_api.post(
        "/v1/tasks", {"cron": "0 3 * * *", "url": "https://93.184.216.34/"}, format="json"
    ).json()["id"]
    dead_job(theirs, owner=other_tenant)
    assert api.get(f"/v1/dlq?task_id={theirs}").json()["results"] == []


def test_dlq_by_a_task_id_that_is_not_a_uuid_is_400_naming_it(api):
    response = api.get("/v1/dlq?task_id=nightly")
    assert response.status_code == 400 and "task_id" in response.json()["error"]["fields"]
