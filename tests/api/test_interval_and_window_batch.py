"""POST /v1/tasks/batch takes interval tasks, windows and run limits as a single create does."""

from tasks.models import Task
from tests.api.test_task_batch import batch, statuses
from tests.conftest import PUBLIC_URL, cron_task


def test_a_batch_creates_an_interval_task_with_its_window_and_run_limit(api):
    item = {"interval_seconds": 900, "url": PUBLIC_URL, "max_runs": 4}
    item |= {"starts_at": "2030-01-01T00:00:00Z", "ends_at": "2030-02-01T00:00:00Z"}
    response = batch(api, item)
    assert statuses(response) == [201]
    stored = Task.objects.get(id=response.json()["results"][0]["task"]["id"])
    assert (stored.interval_seconds, stored.max_runs, stored.runs_made) == (900, 4, 0)
    assert stored.next_run_at == stored.starts_at
    assert stored.ends_at.isoformat() == "2030-02-01T00:00:00+00:00"


def test_a_batch_refuses_a_bad_window_item_by_its_field(api):
    bad = cron_task(starts_at="2030-01-02T00:00:00Z", ends_at="2030-01-01T00:00:00Z")
    response = batch(api, cron_task(), bad, cron_task(interval_seconds=60))
    assert statuses(response) == [201, 400, 400]
    results = response.json()["results"]
    assert "ends_at" in results[1]["error"]["fields"]
    assert "interval_seconds" in results[2]["error"]["fields"]
    assert Task.objects.count() == 1
