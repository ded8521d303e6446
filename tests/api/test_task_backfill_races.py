"""Backfills of one range at the same time: each instant is made once, and the answers add
up to exactly the runs made."""

import threading

import pytest
from django.db import connection

from tests.api.test_task_backfill import backfill, past_minutes, runs_of
from tests.conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_simultaneous_backfills_make_each_run_once(make_task, tenant):
    task = make_task(cron="* * * * *")
    start, end = past_minutes(300)
    answers, ready = [], threading.Barrier(4)

    def ask() -> None:
        client = client_for(tenant)
        ready.wait()
        answers.append(backfill(client, task["id"], start, end))
        connection.close()

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [answer.status_code for answer in answers] == [202] * 4
    assert sum(answer.json()["made"] for answer in answers) == 300
    assert all(answer.json()["instants"] == 300 for answer in answers)
    assert len({run.scheduled_at for run in runs_of(task["id"])}) == len(runs_of(task["id"])) == 300
