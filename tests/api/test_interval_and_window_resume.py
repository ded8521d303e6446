"""Resume of a paused interval or windowed task: the next run on its grid from now, or
completed when its window is over."""

from datetime import UTC, datetime, timedelta

from tasks.models import Task
from tasks.timing import ceil_second
from tests.conftest import PUBLIC_URL


def resume(api, task_id: str) -> dict:
    response = api.post(f"/v1/tasks/{task_id}/resume", HTTP_IF_MATCH="*")
    assert response.status_code == 200, response.content
    return response.json()


def paused_interval_task(api, **fields) -> str:
    body = {"interval_seconds": 3600, "url": PUBLIC_URL}
    response = api.post("/v1/tasks", body, format="json")
    assert response.status_code == 201, response.content
    task_id = response.json()["id"]
    Task.objects.filter(id=task_id).update(status="paused", **fields)
    return task_id


def test_a_resumed_interval_task_waits_for_its_next_grid_instant(api):
    start = ceil_second(datetime.now(UTC)) - timedelta(hours=5, minutes=10)
    task_id = paused_interval_task(api, starts_at=start, next_run_at=start)
    body = resume(api, task_id)
    assert body["status"] == "active"
    assert Task.objects.get(id=task_id).next_run_at == start + timedelta(hours=6)


def test_a_task_resumed_after_its_window_ended_is_completed(api):
    ended = datetime.now(UTC) - timedelta(minutes=1)
    task_id = paused_interval_task(api, ends_at=ended)
    body = resume(api, task_id)
    assert (body["status"], body["next_run_at"]) == ("completed", None)


def test_a_task_resumed_with_its_run_limit_reached_is_completed(api):
    task_id = paused_interval_task(api, max_runs=2, runs_made=2)
    body = resume(api, task_id)
    assert (body["status"], body["next_run_at"]) == ("completed", None)
