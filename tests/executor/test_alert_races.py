"""The alert's pace under load: two batches of one task at once, and a storm in one batch."""

import threading

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from jobs.callbacks.produce import make_callbacks
from tasks.models import Task
from tests.executor.alert_helpers import alerting_task, alerts_of, dead_jobs

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_batches_of_deaths_of_one_task_at_once_make_one_alert(tenant):
    task = alerting_task(tenant)
    first, second = dead_jobs(task, 2)
    first_made, errors = threading.Event(), []

    def record(job, before_commit) -> None:
        try:
            with transaction.atomic():
                make_callbacks([str(job.id)])
                before_commit()
        except Exception as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)
        finally:
            connection.close()

    def hold_open() -> None:
        first_made.set()
        threading.Event().wait(0.5)  # the second batch arrives while this one is uncommitted

    one = threading.Thread(target=record, args=(first, hold_open))
    two = threading.Thread(target=lambda: first_made.wait(10) and record(second, lambda: None))
    one.start(), two.start()
    one.join(30), two.join(30)
    assert not errors
    assert [body["deaths"] for _, body in alerts_of(task)] == [2]


def test_a_storm_of_500_tasks_dying_in_one_batch_costs_a_few_statements(tenant):
    tasks = [alerting_task(tenant) for _ in range(500)]
    jobs = [job for task in tasks for job in dead_jobs(task, 1)]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        made = make_callbacks(str(job.id) for job in jobs)
    assert made == 500
    # SQLite's inserts are split into batches of 999 parameters (in-process, no round trips).
    bound = 15 if connection.vendor == "mysql" else 40
    assert len(queries) <= bound, [q["sql"][:80] for q in queries]
    assert Task.objects.count() == 500
    assert [body["deaths"] for _, body in alerts_of(tasks[-1])] == [1]


def test_a_second_storm_of_500_tasks_folds_into_their_waiting_alerts_in_a_few_statements(
    tenant,
):
    tasks = [alerting_task(tenant) for _ in range(500)]
    with transaction.atomic():
        make_callbacks(str(job.id) for task in tasks for job in dead_jobs(task, 1))
    jobs = [job for task in tasks for job in dead_jobs(task, 1)]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        made = make_callbacks(str(job.id) for job in jobs)
    assert made == 0
    bound = 15 if connection.vendor == "mysql" else 40
    assert len(queries) <= bound, [q["sql"][:80] for q in queries]
    assert [body["deaths"] for _, body in alerts_of(tasks[0])] == [2]
