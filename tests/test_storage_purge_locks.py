"""The purge and the edits of a task meet on its row lock (MariaDB only: the embedded
SQLite mode has one writer at a time)."""

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction

from jobs.storage_purge import StoragePurge
from tasks.models import Task

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_task_locked_by_an_edit_is_stepped_over_without_waiting(add_task):
    if connection.vendor != "mysql":
        pytest.fail("row locks are MariaDB's: run with DATABASE_URL=mysql://...")
    locked, free = (add_task(status="deleted") for _ in range(2))
    Task.objects.update(updated_at=datetime.now(UTC) - timedelta(days=30))
    holding, release = threading.Event(), threading.Event()

    def editor() -> None:
        with transaction.atomic():
            Task.objects.select_for_update().get(id=locked.id)
            holding.set()
            release.wait(30)
        connection.close()

    holder = threading.Thread(target=editor)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.monotonic()
        assert StoragePurge().run() == (1, 0)
        assert time.monotonic() - started < 2  # no lock wait
    finally:
        release.set()
        holder.join(10)
    assert list(Task.objects.values_list("id", flat=True)) == [locked.id]
