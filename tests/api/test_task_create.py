"""POST /v1/tasks: a created task and its first run."""

from datetime import UTC, datetime, timedelta

from tasks.models import Task
from tests.conftest import cron_task, one_off_task


def test_create_cron_task_returns_201_with_the_task(api):
    response = api.post("/v1/tasks", cron_task(), format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["cron"] == "0 3 * * *"
    assert body["status"] == "active"
    assert body["version"] == 1
    assert response["ETag"] == '"1"'
    assert response["Location"].endswith(f"/v1/tasks/{body['id']}")


def test_create_cron_task_sets_next_run_to_first_occurrence_after_now(api):
    body = api.post("/v1/tasks", cron_task(cron="*/5 * * * *"), format="json").json()
    next_run = datetime.fromisoformat(body["next_run_at"])
    now = datetime.now(UTC)
    assert now < next_run <= now + timedelta(minutes=5)
    assert next_run.minute % 5 == 0 and next_run.second == 0


def test_create_cron_task_evaluates_in_its_time_zone(api):
    body = api.post(
        "/v1/tasks", cron_task(cron="0 9 * * *", timezone="Asia/Tokyo"), format="json"
    ).json()
    next_run = datetime.fromisoformat(body["next_run_at"])
    assert next_run.hour == 0 and next_run.minute == 0  # 09:00 in Tokyo is 00:00 UTC


def test_create_one_off_task_runs_at_run_at(api):
    body = api.post("/v1/tasks", one_off_task(), format="json").json()
    assert datetime.fromisoformat(body["next_run_at"]) == datetime(2030, 1, 1, 9, tzinfo=UTC)
    assert body["cron"] is None


def test_create_one_off_task_in_the_past_is_due_at_once(api):
    past = "2020-05-05T05:05:05Z"
    body = api.post("/v1/tasks", one_off_task(run_at=past), format="json").json()
    assert datetime.fromisoformat(body["next_run_at"]) == datetime(2020, 5, 5, 5, 5, 5, tzinfo=UTC)
    assert body["status"] == "active"


def test_create_one_off_task_normalises_run_at_to_utc(api):
    body = api.post("/v1/tasks", one_off_task(run_at="2030-01-01T10:00:00+01:00"), format="json")
    assert datetime.fromisoformat(body.json()["run_at"]) == datetime(2030, 1, 1, 9, tzinfo=UTC)


def test_create_applies_defaults(api):
    body = api.post("/v1/tasks", cron_task(), format="json").json()
    assert body["method"] == "POST"
    assert body["priority"] == 5
    assert body["misfire_policy"] == "run_all"
    assert body["headers"] == {}


def test_create_stores_bucket_from_the_task_id(api):
    body = api.post("/v1/tasks", cron_task(), format="json").json()
    task = Task.objects.get(id=body["id"])
    assert 0 <= task.bucket < 1024


def test_create_hashed_cron_gets_a_stable_minute_per_task(api):
    first = api.post("/v1/tasks", cron_task(cron="H * * * *"), format="json").json()
    task = Task.objects.get(id=first["id"])
    assert task.cron == "H * * * *"
    minute = datetime.fromisoformat(first["next_run_at"]).minute
    api_again = api.get(f"/v1/tasks/{first['id']}").json()
    assert datetime.fromisoformat(api_again["next_run_at"]).minute == minute
