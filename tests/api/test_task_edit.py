"""GET, PATCH, pause, resume and DELETE of one task, under optimistic concurrency."""

from datetime import UTC, datetime, timedelta

import pytest

from jobs.models import Job, JobStatus
from tasks.models import Task


def test_get_returns_the_task_with_its_version_as_etag(api, make_task):
    task = make_task()
    response = api.get(f"/v1/tasks/{task['id']}")
    assert response.status_code == 200
    assert response.json()["id"] == task["id"]
    assert response["ETag"] == '"1"'


def test_get_unknown_task_is_404(api):
    assert api.get("/v1/tasks/01a22754-6026-7ed2-b47c-5491fcc5bdc5").status_code == 404


def test_get_with_an_id_that_is_not_a_uuid_is_404(api):
    response = api.get("/v1/tasks/not-a-uuid")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_patch_without_if_match_is_428(api, make_task):
    task = make_task()
    response = api.patch(f"/v1/tasks/{task['id']}", {"name": "x"}, format="json")
    assert response.status_code == 428
    assert Task.objects.get(id=task["id"]).name == "nightly"


def test_patch_with_stale_version_is_412(api, make_task):
    task = make_task()
    api.patch(f"/v1/tasks/{task['id']}", {"name": "a"}, format="json", HTTP_IF_MATCH='"1"')
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"name": "b"}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 412
    assert Task.objects.get(id=task["id"]).name == "a"


def test_patch_with_unreadable_if_match_is_412(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"name": "b"}, format="json", HTTP_IF_MATCH='"abc"'
    )
    assert response.status_code == 412


def test_patch_applies_changes_and_bumps_the_version(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"name": "renamed", "priority": 1},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 200
    assert response.json()["name"] == "renamed"
    assert response.json()["priority"] == 1
    assert response.json()["version"] == 2
    assert response["ETag"] == '"2"'


def test_patch_accepts_a_weak_etag(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"name": "w"}, format="json", HTTP_IF_MATCH='W/"1"'
    )
    assert response.status_code == 200


def test_patch_of_the_schedule_recomputes_next_run(api, make_task):
    task = make_task(cron="0 3 * * *")
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"cron": "30 4 * * *"}, format="json", HTTP_IF_MATCH='"1"'
    )
    next_run = datetime.fromisoformat(response.json()["next_run_at"])
    assert (next_run.hour, next_run.minute) == (4, 30)


def test_patch_from_cron_to_run_at_makes_a_one_off_task(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"run_at": "2031-02-03T04:05:06Z"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    body = response.json()
    assert body["cron"] is None
    assert datetime.fromisoformat(body["next_run_at"]) == datetime(2031, 2, 3, 4, 5, 6, tzinfo=UTC)


def test_patch_cannot_write_next_run_at(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"next_run_at": "2031-01-01T00:00:00Z"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 400
    assert Task.objects.get(id=task["id"]).version == 1


def test_patch_with_invalid_value_is_400_and_changes_nothing(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}", {"url": "http://10.0.0.1/"}, format="json", HTTP_IF_MATCH='"1"'
    )
    assert response.status_code == 400
    stored = Task.objects.get(id=task["id"])
    assert stored.version == 1 and stored.url == task["url"]


def test_patch_that_leaves_both_cron_and_run_at_is_400(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"cron": "* * * * *", "run_at": "2031-01-01T00:00:00Z"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 400


def test_pause_sets_paused_and_bumps_the_version(api, make_task):
    task = make_task()
    response = api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200
    assert response.json()["status"] == "paused"
    assert response.json()["version"] == 2


def test_pause_with_stale_version_is_412(api, make_task):
    task = make_task()
    assert api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"7"').status_code == 412


def test_resume_moves_a_paused_task_to_its_next_future_run(api, make_task):
    task = make_task(cron="*/10 * * * *")
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    long_ago = datetime(2020, 1, 1, tzinfo=UTC)
    Task.objects.filter(id=task["id"]).update(next_run_at=long_ago)
    response = api.post(f"/v1/tasks/{task['id']}/resume", HTTP_IF_MATCH='"2"')
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "active"
    assert body["version"] == 3
    next_run = datetime.fromisoformat(body["next_run_at"])
    now = datetime.now(UTC)
    assert now < next_run <= now + timedelta(minutes=10)


def test_resume_of_a_one_off_task_keeps_its_run_at_even_if_past(api):
    created = api.post(
        "/v1/tasks",
        {"run_at": "2020-01-01T00:00:00Z", "url": "https://93.184.216.34/"},
        format="json",
    ).json()
    api.post(f"/v1/tasks/{created['id']}/pause", HTTP_IF_MATCH='"1"')
    body = api.post(f"/v1/tasks/{created['id']}/resume", HTTP_IF_MATCH='"2"').json()
    assert datetime.fromisoformat(body["next_run_at"]) == datetime(2020, 1, 1, tzinfo=UTC)


def test_resume_with_stale_version_is_412(api, make_task):
    task = make_task()
    api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH='"1"')
    assert api.post(f"/v1/tasks/{task['id']}/resume", HTTP_IF_MATCH='"1"').status_code == 412


def test_pause_of_a_completed_task_is_409(api, make_task):
    task = make_task()
    Task.objects.filter(id=task["id"]).update(status="completed")
    assert api.post(f"/v1/tasks/{task['id']}/pause", HTTP_IF_MATCH="*").status_code == 409


def test_delete_is_204_and_the_task_is_gone_from_the_tenants_view(api, make_task):
    task = make_task()
    assert api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"').status_code == 204
    assert api.get(f"/v1/tasks/{task['id']}").status_code == 404
    assert api.get("/v1/tasks").json()["results"] == []
    stored = Task.objects.get(id=task["id"])
    assert stored.status == "deleted" and stored.next_run_at is None


def test_delete_cancels_the_tasks_pending_jobs(api, make_task, tenant):
    task = make_task()
    now = datetime.now(UTC)
    job = Job.objects.create(
        tenant=tenant, task_id=task["id"], scheduled_at=now, next_attempt_at=now
    )
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"')
    assert Job.objects.get(id=job.id).status == JobStatus.CANCELLED


def test_delete_without_if_match_is_428(api, make_task):
    task = make_task()
    assert api.delete(f"/v1/tasks/{task['id']}").status_code == 428
    assert Task.objects.get(id=task["id"]).status == "active"


def test_delete_with_stale_version_is_412(api, make_task):
    task = make_task()
    assert api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"2"').status_code == 412


def test_deleted_task_cannot_be_edited(api, make_task):
    task = make_task()
    api.delete(f"/v1/tasks/{task['id']}", HTTP_IF_MATCH='"1"')
    response = api.patch(f"/v1/tasks/{task['id']}", {"name": "x"}, format="json", HTTP_IF_MATCH="*")
    assert response.status_code == 404


@pytest.mark.parametrize("count", [5])
def test_list_pages_newest_first_with_a_cursor(api, make_task, count):
    ids = [make_task(name=f"t{i}")["id"] for i in range(count)]
    first = api.get("/v1/tasks?limit=2").json()
    assert [t["id"] for t in first["results"]] == ids[::-1][:2]
    second = api.get(first["next"]).json()
    assert [t["id"] for t in second["results"]] == ids[::-1][2:4]
    third = api.get(second["next"]).json()
    assert [t["id"] for t in third["results"]] == ids[::-1][4:]
    assert third["next"] is None


def test_list_filters_by_status(api, make_task):
    paused = make_task()
    make_task()
    api.post(f"/v1/tasks/{paused['id']}/pause", HTTP_IF_MATCH='"1"')
    results = api.get("/v1/tasks?status=paused").json()["results"]
    assert [t["id"] for t in results] == [paused["id"]]


@pytest.mark.parametrize("query", ["limit=0", "limit=500", "limit=abc", "cursor=@@@", "status=x"])
def test_list_with_bad_query_is_400(api, query):
    assert api.get(f"/v1/tasks?{query}").status_code == 400


def test_an_edit_that_leaves_the_schedule_alone_does_not_rerun_a_finished_one_off(api):
    created = api.post(
        "/v1/tasks",
        {"run_at": "2020-01-01T00:00:00Z", "url": "https://93.184.216.34/"},
        format="json",
    ).json()
    Task.objects.filter(id=created["id"]).update(status="completed", next_run_at=None)
    response = api.patch(
        f"/v1/tasks/{created['id']}",
        {"name": "renamed", "timezone": "UTC", "run_at": "2020-01-01T00:00:00Z"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 200
    stored = Task.objects.get(id=created["id"])
    assert stored.status == "completed" and stored.next_run_at is None


def test_a_new_run_at_makes_a_finished_one_off_run_again(api):
    created = api.post(
        "/v1/tasks",
        {"run_at": "2020-01-01T00:00:00Z", "url": "https://93.184.216.34/"},
        format="json",
    ).json()
    Task.objects.filter(id=created["id"]).update(status="completed", next_run_at=None)
    response = api.patch(
        f"/v1/tasks/{created['id']}",
        {"run_at": "2031-01-01T00:00:00Z"},
        format="json",
        HTTP_IF_MATCH='"1"',
    )
    assert response.json()["status"] == "active"
    assert response.json()["next_run_at"] == "2031-01-01T00:00:00Z"


def test_an_if_match_of_thousands_of_digits_is_412(api, make_task):
    task = make_task()
    response = api.patch(
        f"/v1/tasks/{task['id']}",
        {"name": "b"},
        format="json",
        HTTP_IF_MATCH='"' + "9" * 5000 + '"',
    )
    assert response.status_code == 412
    assert response.json()["error"]["code"] == "precondition_failed"
