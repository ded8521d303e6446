"""The archiver moves the skipped-run ledger's closed entries to the history store after
the succeeded jobs' delay, history first, and keeps each task's open entry; a deleted
task's entries all move. Both stores."""

from datetime import UTC, datetime, timedelta

import pytest

from history.sql_store import SqlHistoryStore
from jobs.skip_archive import archive_skips
from tasks.models import SkippedRun, Task

LONG_AGO = datetime.now(UTC).replace(microsecond=0) - timedelta(days=2)


@pytest.fixture(params=["sql", "cassandra"])
def store(request, db):
    if request.param == "sql":
        return SqlHistoryStore()
    return request.getfixturevalue("cassandra_store")


def entry(task, recorded_at=LONG_AGO) -> SkippedRun:
    return SkippedRun.objects.create(
        tenant_id=task.tenant_id, task_id=task.id, reason="paused", first_scheduled_at=LONG_AGO,
        last_scheduled_at=LONG_AGO, count=1, recorded_at=recorded_at,
    )  # fmt: skip


def archived_ids(store, task) -> list:
    found = store.task_skips(tenant_id=task.tenant_id, task_id=task.id, before=None, limit=10)
    return [record.id for record in found]


def test_an_old_closed_entry_moves_to_the_history(store, add_task):
    task = add_task()
    closed = entry(task)
    assert archive_skips(store=store) == (1, 1)
    assert not SkippedRun.objects.filter(id=closed.id).exists()
    assert archived_ids(store, task) == [closed.id]


def test_the_tasks_open_entry_stays(store, add_task):
    task = add_task()
    still_open = entry(task)
    Task.objects.filter(id=task.id).update(open_skip_id=still_open.id, open_skip_reason="paused")
    assert archive_skips(store=store) == (0, 0)
    assert SkippedRun.objects.filter(id=still_open.id).exists()


def test_an_entry_written_recently_stays(store, add_task):
    task = add_task()
    entry(task, recorded_at=datetime.now(UTC) - timedelta(minutes=5))
    assert archive_skips(store=store) == (0, 0)


def test_a_deleted_tasks_open_entry_moves(store, add_task):
    task = add_task()
    was_open = entry(task)
    Task.objects.filter(id=task.id).update(
        status="deleted", open_skip_id=was_open.id, open_skip_reason="paused"
    )
    assert archive_skips(store=store) == (1, 1)
    assert archived_ids(store, task) == [was_open.id]


def test_a_move_repeated_after_a_crash_keeps_one_entry(store, add_task):
    task = add_task()
    moved = entry(task)
    archive_skips(store=store)
    SkippedRun.objects.create(
        **{f.attname: getattr(moved, f.attname) for f in SkippedRun._meta.fields}
    )
    assert archive_skips(store=store) == (1, 1)
    assert archived_ids(store, task) == [moved.id]


def test_the_archiver_process_moves_entries_and_purges_them_past_the_retention(add_task):
    from execution.archiver_process import ArchiverProcess
    from history.models import SkippedRunHistory

    task = add_task()
    moved = entry(task)
    ArchiverProcess(interval=1).run_once()
    assert not SkippedRun.objects.exists()
    SkippedRunHistory.objects.filter(id=moved.id).update(archived_at=LONG_AGO - timedelta(days=60))
    ArchiverProcess(interval=1)._purge()
    assert not SkippedRunHistory.objects.exists()
