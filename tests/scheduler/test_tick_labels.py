"""The tick copies a task's labels onto the job it makes; an unlabelled task's job has NULL."""

from django.db import connection

from jobs.models import Job
from tasks.tick import run_tick
from tests.scheduler.conftest import NOW


def test_the_tick_copies_the_labels_onto_the_job(add_task):
    task = add_task(labels={"env": "prod", "42": "answer"})
    run_tick(now=NOW)
    assert Job.objects.get(task=task).labels == {"env": "prod", "42": "answer"}


def test_a_job_of_an_unlabelled_task_stores_null(add_task):
    task = add_task()
    run_tick(now=NOW)
    with connection.cursor() as cursor:
        cursor.execute("SELECT labels FROM jobs WHERE task_id = %s", [task.id.hex])
        rows = list(cursor.fetchall())
    assert rows == [(None,)]


def test_a_job_keeps_the_labels_its_task_had_when_it_was_made(add_task):
    task = add_task(labels={"env": "prod"})
    run_tick(now=NOW)
    task.labels = {"env": "dev"}
    task.save(update_fields=["labels"])
    assert Job.objects.get(task=task).labels == {"env": "prod"}
