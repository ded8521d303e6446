"""POST /v1/tasks with interval_seconds, a window and a run limit: what next_run_at says."""

from datetime import UTC, datetime, timedelta

from tasks.models import Task
from tasks.timing import ceil_second
from tests.conftest import PUBLIC_URL, cron_task


def interval_task(**overrides) -> dict:
    body = {"name": "every 90 s", "interval_seconds": 90, "url": PUBLIC_URL}
    body.update(overrides)
    return body


def created(api, body: dict) -> dict:
    response = api.post("/v1/tasks", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_an_interval_task_first_runs_at_its_creation_rounded_up_to_the_second(api):
    task = created(api, interval_task())
    stored = Task.objects.get(id=task["id"])
    assert stored.next_run_at == ceil_second(stored.created_at)
    assert stored.cron is None and stored.run_at is None


def test_an_interval_task_with_a_future_start_first_runs_at_the_start(api):
    task = created(api, interval_task(starts_at="2030-01-01T10:00:00+02:00"))
    assert task["next_run_at"] == "2030-01-01T08:00:00Z"
    assert task["starts_at"] == "2030-01-01T08:00:00Z"


def test_an_interval_task_started_in_the_past_runs_on_its_grid_from_the_start(api):
    start = ceil_second(datetime.now(UTC)) - timedelta(hours=1, seconds=30)
    task = created(api, interval_task(interval_seconds=3600, starts_at=start.isoformat()))
    assert Task.objects.get(id=task["id"]).next_run_at == start + timedelta(hours=2)


def test_a_windowed_cron_task_first_runs_at_its_first_run_inside_the_window(api):
    body = cron_task(cron="0 9 * * *", timezone="Europe/Madrid", max_runs=10)
    body |= {"starts_at": "2030-03-04T09:30:00+01:00", "ends_at": "2030-04-01T00:00:00Z"}
    task = created(api, body)
    assert task["next_run_at"] == "2030-03-05T08:00:00Z"
    assert (task["max_runs"], task["runs_made"]) == (10, 0)


def test_the_api_shows_the_new_fields_of_an_interval_task(api):
    task = created(api, interval_task(ends_at="2031-01-01T00:00:00Z", max_runs=3))
    assert task["interval_seconds"] == 90
    assert task["ends_at"] == "2031-01-01T00:00:00Z"
    assert (task["max_runs"], task["runs_made"], task["cron"], task["run_at"]) == (3, 0, None, None)


def test_an_interval_task_ignores_its_time_zone_for_the_grid(api):
    body = interval_task(timezone="Europe/Madrid", starts_at="2030-03-31T00:30:00Z")
    task = created(api, body)
    assert task["next_run_at"] == "2030-03-31T00:30:00Z" and task["timezone"] == "Europe/Madrid"
