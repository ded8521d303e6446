"""A backfill reads the history store too: a run archived since it was made is not made
again, and without the history no run is made at all (503)."""

from datetime import UTC, datetime, timedelta

import pytest

from history.models import JobHistory
from history.stores import close_history_stores
from jobs.archive import archive_batch
from jobs.models import Job
from tests.api.test_task_backfill import backfill, past_minutes, runs_of


def finish_long_ago(jobs: list[Job]) -> None:
    """As the executor leaves a run that succeeded two hours ago: old enough to archive."""
    finished = datetime.now(UTC) - timedelta(hours=2)
    Job.objects.filter(id__in=[job.id for job in jobs]).update(
        status="succeeded", attempt=1, finished_at=finished, http_status=200
    )


def test_an_archived_run_is_not_made_again(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(4)
    backfill(api, task["id"], start, end)
    archived = runs_of(task["id"])[1:3]
    finish_long_ago(archived)
    assert archive_batch() == (2, 2)
    assert JobHistory.objects.filter(task_id=task["id"]).count() == 2
    response = backfill(api, task["id"], start, end)
    assert response.json() == {"made": 0, "existing": 4, "instants": 4}
    assert {run.scheduled_at for run in runs_of(task["id"])} == {start, end - timedelta(minutes=1)}


def test_archived_runs_on_many_history_pages_are_all_found(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(990)  # two pages of the history and some
    backfill(api, task["id"], start, end)
    finish_long_ago(runs_of(task["id"]))
    while archive_batch(batch_size=500) != (0, 0):
        pass
    assert not runs_of(task["id"])
    response = backfill(api, task["id"], start - timedelta(minutes=10), end)
    assert response.json() == {"made": 10, "existing": 990, "instants": 1000}


def test_archived_runs_outside_the_range_do_not_count(api, make_task):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(6)
    backfill(api, task["id"], start, end)
    finish_long_ago(runs_of(task["id"]))
    archive_batch()
    middle = start + timedelta(minutes=2)
    response = backfill(api, task["id"], middle, middle + timedelta(minutes=2))
    assert response.json() == {"made": 0, "existing": 2, "instants": 2}


def test_without_the_history_a_backfill_is_503_and_makes_nothing(
    api, make_task, unreachable_cassandra
):
    task = make_task(cron="* * * * *")
    response = backfill(api, task["id"], *past_minutes(3))
    assert response.status_code == 503, response.content
    assert response.json()["error"]["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1
    assert not runs_of(task["id"])


def test_a_backfill_the_history_refused_costs_no_creation(
    api, make_task, tenant, unreachable_cassandra
):
    task = make_task(cron="* * * * *")
    tenant.create_rate, tenant.create_burst = 1, 1
    tenant.save()
    codes = [backfill(api, task["id"], *past_minutes(3)).status_code for _ in range(3)]
    assert codes == [503, 503, 503]


@pytest.fixture
def cassandra_history(settings, cassandra_node, cassandra_store):
    """The history on the real Cassandra node, in the session's test keyspace."""
    settings.HISTORY_BACKEND = "cassandra"
    settings.CASSANDRA_HOSTS = cassandra_node[0]
    settings.CASSANDRA_PORT = cassandra_node[1]
    settings.CASSANDRA_KEYSPACE = cassandra_store.keyspace
    close_history_stores()
    yield
    close_history_stores()


def test_a_run_archived_to_cassandra_is_not_made_again(api, make_task, cassandra_history):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(3)
    backfill(api, task["id"], start, end)
    finish_long_ago(runs_of(task["id"]))
    assert archive_batch() == (3, 3)
    assert not JobHistory.objects.filter(task_id=task["id"]).exists()  # not the SQL store
    response = backfill(api, task["id"], start - timedelta(minutes=1), end)
    assert response.json() == {"made": 1, "existing": 3, "instants": 4}
    assert [run.scheduled_at for run in runs_of(task["id"])] == [start - timedelta(minutes=1)]
