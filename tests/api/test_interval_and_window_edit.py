"""PATCH of a schedule field recomputes next_run_at (If-Match as for any edit); giving one
schedule kind replaces the others; a window over or a run limit reached completes the task."""

from datetime import UTC, datetime, timedelta

from tasks.models import Task
from tasks.timing import ceil_second
from tests.conftest import PUBLIC_URL


def patch(api, task: dict, changes: dict, if_match: str = "*"):
    return api.patch(f"/v1/tasks/{task['id']}", changes, format="json", HTTP_IF_MATCH=if_match)


def patched(api, task: dict, changes: dict) -> dict:
    response = patch(api, task, changes)
    assert response.status_code == 200, response.content
    return response.json()


def interval_task(api, **overrides) -> dict:
    body = {"interval_seconds": 60, "url": PUBLIC_URL, **overrides}
    response = api.post("/v1/tasks", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_an_interval_given_to_a_cron_task_replaces_its_cron(api, make_task):
    task = make_task()
    body = patched(api, task, {"interval_seconds": 600, "starts_at": "2030-01-01T00:00:00Z"})
    assert (body["cron"], body["interval_seconds"]) == (None, 600)
    assert body["next_run_at"] == "2030-01-01T00:00:00Z"


def test_an_interval_given_to_a_one_off_task_replaces_its_run_at(api):
    response = api.post(
        "/v1/tasks", {"run_at": "2030-01-01T09:00:00Z", "url": PUBLIC_URL}, format="json"
    )
    body = patched(api, response.json(), {"interval_seconds": 60})
    assert (body["run_at"], body["interval_seconds"]) == (None, 60)
    stored = Task.objects.get(id=body["id"])
    assert stored.next_run_at >= ceil_second(stored.created_at)


def test_a_cron_given_to_an_interval_task_replaces_its_interval(api):
    task = interval_task(api)
    body = patched(api, task, {"cron": "0 3 * * *"})
    assert (body["cron"], body["interval_seconds"]) == ("0 3 * * *", None)
    assert body["next_run_at"].endswith("T03:00:00Z")


def test_a_run_at_given_to_a_windowed_interval_task_replaces_it_and_its_window(api):
    task = interval_task(api, ends_at="2031-01-01T00:00:00Z", max_runs=4)
    body = patched(api, task, {"run_at": "2030-05-05T05:05:05Z"})
    assert (body["interval_seconds"], body["ends_at"], body["max_runs"]) == (None, None, None)
    assert body["next_run_at"] == "2030-05-05T05:05:05Z"


def test_a_window_given_to_a_one_off_task_is_rejected(api):
    response = api.post(
        "/v1/tasks", {"run_at": "2030-01-01T09:00:00Z", "url": PUBLIC_URL}, format="json"
    )
    refused = patch(api, response.json(), {"max_runs": 2})
    assert refused.status_code == 400 and "max_runs" in refused.json()["error"]["fields"]


def test_an_interval_and_a_cron_in_one_edit_is_rejected(api, make_task):
    refused = patch(api, make_task(), {"interval_seconds": 60, "cron": "* * * * *"})
    assert refused.status_code == 400
    assert {"cron", "interval_seconds"} <= set(refused.json()["error"]["fields"])


def test_a_new_start_moves_the_next_run_onto_the_new_grid(api):
    task = interval_task(api, interval_seconds=3600, starts_at="2030-01-01T00:00:00Z")
    body = patched(api, task, {"starts_at": "2030-01-01T00:20:00Z"})
    assert body["next_run_at"] == "2030-01-01T00:20:00Z"


def test_an_end_not_after_the_stored_start_is_rejected(api):
    task = interval_task(api, starts_at="2030-01-01T00:00:00Z")
    refused = patch(api, task, {"ends_at": "2029-01-01T00:00:00Z"})
    assert refused.status_code == 400 and "ends_at" in refused.json()["error"]["fields"]


def test_ending_the_window_now_completes_the_task(api):
    task = interval_task(api)
    now = datetime.now(UTC).replace(microsecond=0)
    body = patched(api, task, {"ends_at": (now - timedelta(seconds=1)).isoformat()})
    assert (body["status"], body["next_run_at"]) == ("completed", None)


def test_a_run_limit_already_reached_completes_the_task(api):
    task = interval_task(api)
    Task.objects.filter(id=task["id"]).update(runs_made=5)
    body = patched(api, task, {"max_runs": 5})
    assert (body["status"], body["next_run_at"]) == ("completed", None)


def test_a_raised_run_limit_makes_a_completed_task_run_again(api):
    task = interval_task(api, max_runs=2, starts_at="2030-01-01T00:00:00Z")
    Task.objects.filter(id=task["id"]).update(runs_made=2, status="completed", next_run_at=None)
    body = patched(api, task, {"max_runs": 3})
    assert (body["status"], body["next_run_at"]) == ("active", "2030-01-01T00:00:00Z")


def test_a_schedule_edit_with_a_stale_version_is_412(api):
    task = interval_task(api)
    patched(api, task, {"interval_seconds": 120})
    assert patch(api, task, {"interval_seconds": 30}, if_match='"1"').status_code == 412
    assert Task.objects.get(id=task["id"]).interval_seconds == 120


def test_a_later_end_makes_a_completed_task_run_again(api):
    task = interval_task(api, starts_at="2030-01-01T00:00:00Z", ends_at="2030-01-02T00:00:00Z")
    Task.objects.filter(id=task["id"]).update(status="completed", next_run_at=None)
    body = patched(api, task, {"ends_at": "2031-01-01T00:00:00Z"})
    assert (body["status"], body["next_run_at"]) == ("active", "2030-01-01T00:00:00Z")
