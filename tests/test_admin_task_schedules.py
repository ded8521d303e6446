"""The console shows a task's interval, window and run limit."""

from datetime import UTC, datetime

from tests.test_admin_tasks import operator_client  # noqa: F401 - a fixture

START = datetime(2030, 1, 1, 8, 0, tzinfo=UTC)
END = datetime(2030, 2, 1, 0, 0, tzinfo=UTC)


def test_the_task_list_shows_an_interval_with_its_window_and_run_limit(operator_client, add_task):  # noqa: F811
    fields = {"starts_at": START, "ends_at": END, "max_runs": 10, "runs_made": 4}
    add_task(cron=None, interval_seconds=90, **fields)
    page = operator_client.get("/admin/tasks/task/").content.decode()
    assert (
        "every 90 s, from 2030-01-01 08:00:00 UTC, until 2030-02-01 00:00:00 UTC, 4 of 10 runs made"
    ) in page


def test_a_tasks_page_shows_its_interval_window_and_runs(operator_client, add_task):  # noqa: F811
    task = add_task(cron=None, interval_seconds=90, starts_at=START, max_runs=10, runs_made=4)
    page = operator_client.get(f"/admin/tasks/task/{task.id}/change/").content.decode()
    for label in ("Interval seconds", "Starts at", "Ends at", "Max runs", "Runs made"):
        assert f">{label}:<" in page, label
