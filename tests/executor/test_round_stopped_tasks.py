"""Each executor round asks once which tasks were paused or deleted since the round before,
whatever the number of jobs it holds (one statement, never one per job)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from execution.executor_round import DatabaseRound
from tasks.models import Task
from tests.executor.round_helpers import a_round


def round_holding(jobs: int, last_read: datetime) -> DatabaseRound:
    database_round = a_round()
    database_round.outbox.claimed(jobs)  # as after a claim of `jobs` jobs, none called yet
    database_round._last_read = last_read
    return database_round


def stop(tasks: list[Task], status: str, at: datetime) -> None:
    Task.objects.filter(id__in=[task.id for task in tasks]).update(status=status, updated_at=at)


def statements_reading_tasks(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries if "tasks" in query["sql"]]


@pytest.mark.parametrize("stopped", [2, 40])
def test_a_round_reads_the_stopped_tasks_in_one_statement(add_task, stopped):
    now = datetime.now(UTC)
    tasks = [add_task() for _ in range(stopped * 2)]
    stop(tasks[:stopped], "paused", now)
    stop(tasks[stopped:], "deleted", now)
    database_round = round_holding(stopped * 2, now - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        report = database_round.run(claim=False)
    assert len(statements_reading_tasks(queries)) == 1
    expected = {str(task.id): "paused" for task in tasks[:stopped]}
    expected |= {str(task.id): "deleted" for task in tasks[stopped:]}
    assert report.stopped_tasks == expected


def test_a_round_leaves_out_tasks_stopped_before_its_last_read(add_task, settings):
    settings.EXECUTOR_STOPPED_LOOKBACK_SECONDS = 10
    now = datetime.now(UTC)
    old, recent = add_task(), add_task()
    stop([old], "paused", now - timedelta(seconds=60))
    stop([recent], "paused", now - timedelta(seconds=5))  # within the lookback
    report = round_holding(1, now).run(claim=False)
    assert report.stopped_tasks == {str(recent.id): "paused"}


def test_a_round_holding_no_job_does_not_ask(add_task):
    stop([add_task()], "deleted", datetime.now(UTC))
    database_round = round_holding(0, datetime.now(UTC) - timedelta(seconds=1))
    with CaptureQueriesContext(connection) as queries:
        report = database_round.run(claim=False)
    assert queries.captured_queries == []
    assert report.stopped_tasks == {}
