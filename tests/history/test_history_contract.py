"""One contract for every history store: the SQL store (on MariaDB, and on SQLite in the
embedded pass) and the Cassandra store on the real node."""

import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import pytest

from history.records import AttemptRecord, HistoryRecord, RunCursor, SkipCursor, SkipRecord
from history.sql_store import SqlHistoryStore
from scheduler_site.ids import new_id

NOW = datetime.now(UTC).replace(microsecond=0)


@pytest.fixture(params=["sql", "cassandra"])
def store(request, db):
    if request.param == "sql":
        return SqlHistoryStore()
    return request.getfixturevalue("cassandra_store")


@dataclass
class Ids:
    """Tenants and tasks of one test: the Cassandra keyspace is shared by the session."""

    tenant: uuid.UUID = field(default_factory=uuid.uuid4)
    other_tenant: uuid.UUID = field(default_factory=uuid.uuid4)
    task: uuid.UUID = field(default_factory=uuid.uuid4)
    other_task: uuid.UUID = field(default_factory=uuid.uuid4)

    def record(self, minutes_ago: float = 0, **fields) -> HistoryRecord:
        scheduled = NOW - timedelta(minutes=minutes_ago)
        values = dict(
            id=new_id(),
            tenant_id=self.tenant,
            task_id=self.task,
            scheduled_at=scheduled,
            status="succeeded",
            attempt=1,
            max_attempts=5,
            priority=5,
            started_at=scheduled,
            finished_at=scheduled + timedelta(seconds=1),
            http_status=200,
            response_body="ok",
            duration_ms=12,
        )
        values.update(fields)
        return HistoryRecord(**values)

    def skip(self, minutes_ago: float = 0, **fields) -> SkipRecord:
        last = NOW - timedelta(minutes=minutes_ago)
        values = dict(
            id=new_id(),
            tenant_id=self.tenant,
            task_id=self.task,
            reason="paused",
            first_scheduled_at=last - timedelta(hours=1),
            last_scheduled_at=last,
            count=61,
            recorded_at=last + timedelta(seconds=5),
        )
        return SkipRecord(**{**values, **fields})

    def skips(self, store, *, before: SkipCursor | None = None, limit: int = 10) -> list:
        return store.task_skips(
            tenant_id=self.tenant, task_id=self.task, before=before, limit=limit
        )

    def runs(self, store, *, before: RunCursor | None = None, limit: int = 10) -> list:
        return store.task_runs(tenant_id=self.tenant, task_id=self.task, before=before, limit=limit)


@pytest.fixture
def ids() -> Ids:
    return Ids()


def test_a_written_job_reads_back_as_written(store, ids):
    written = ids.record(error=None, next_attempt_at=None)
    store.write([written])
    assert store.get(tenant_id=ids.tenant, job_id=written.id) == written


def test_writing_a_job_twice_is_an_upsert(store, ids):
    first = ids.record(status="dead", attempt=3)
    store.write([first])
    store.write([replace(first, status="succeeded", attempt=4)])
    again = store.get(tenant_id=ids.tenant, job_id=first.id)
    assert (again.status, again.attempt) == ("succeeded", 4)
    assert len(ids.runs(store)) == 1


def test_another_tenants_job_is_not_found(store, ids):
    written = ids.record()
    store.write([written])
    assert store.get(tenant_id=ids.other_tenant, job_id=written.id) is None


def test_unknown_job_is_not_found(store, ids):
    assert store.get(tenant_id=ids.tenant, job_id=uuid.uuid4()) is None


def test_task_runs_come_newest_first(store, ids):
    runs = [ids.record(minutes_ago=m) for m in (5, 1, 3)]
    store.write(runs)
    assert [r.id for r in ids.runs(store)] == [runs[1].id, runs[2].id, runs[0].id]


def test_task_runs_page_with_a_cursor(store, ids):
    runs = [ids.record(minutes_ago=m) for m in range(7)]
    store.write(runs)
    first = ids.runs(store, limit=3)
    cursor = RunCursor(first[-1].scheduled_at, first[-1].id)
    second = ids.runs(store, before=cursor, limit=3)
    assert [r.id for r in first + second] == [r.id for r in runs[:6]]


def test_runs_at_the_same_instant_are_ordered_by_job_id(store, ids):
    runs = [ids.record(minutes_ago=2) for _ in range(4)]
    store.write(runs)
    assert [r.id for r in ids.runs(store)] == sorted((r.id for r in runs), reverse=True)


def test_task_runs_leave_out_other_tasks_and_other_tenants(store, ids):
    mine = ids.record()
    store.write([mine, ids.record(task_id=ids.other_task), ids.record(tenant_id=ids.other_tenant)])
    assert [r.id for r in ids.runs(store)] == [mine.id]
    theirs = store.task_runs(tenant_id=ids.other_tenant, task_id=ids.task, before=None, limit=10)
    assert mine.id not in [r.id for r in theirs]


def test_runs_weeks_apart_read_newest_first(store, ids):
    runs = [ids.record(minutes_ago=m) for m in (0, 60 * 24 * 20, 60 * 24 * 28)]
    store.write(runs)
    assert [r.id for r in ids.runs(store)] == [r.id for r in runs]


def test_a_jobs_attempts_are_kept_with_it(store, ids):
    tries = (
        AttemptRecord(1, NOW, "retry", 30, 500, "HTTP 500", "failing"),
        AttemptRecord(2, NOW + timedelta(seconds=10), "retry", 5000, None, "timed out after 5s"),
        AttemptRecord(3, NOW + timedelta(seconds=30), "succeeded", 12, 200, None, "ok"),
    )
    record = ids.record(attempt=3, attempts=tries, claimed_at=NOW - timedelta(seconds=2))
    store.write([record])
    found = store.get(tenant_id=ids.tenant, job_id=record.id)
    assert found.attempts == tries
    assert found.claimed_at == record.claimed_at
    assert ids.runs(store)[0].attempts == tries


def test_a_job_with_no_attempt_reads_back_with_none(store, ids):
    record = ids.record(status="cancelled", http_status=None, response_body=None)
    store.write([record])
    assert store.get(tenant_id=ids.tenant, job_id=record.id).attempts == ()


def test_ledger_entries_read_back_as_written_newest_first(store, ids):
    entries = [ids.skip(minutes_ago=m, reason=r) for m, r in ((0, "misfire"), (90, "paused"))]
    store.write_skips(entries[::-1])
    assert ids.skips(store) == entries


def test_writing_a_ledger_entry_twice_is_an_upsert(store, ids):
    entry = ids.skip(count=3)
    store.write_skips([entry])
    store.write_skips([replace(entry, count=4)])
    assert [found.count for found in ids.skips(store)] == [4]


def test_ledger_entries_page_strictly_older_than_the_cursor(store, ids):
    entries = [ids.skip(minutes_ago=m) for m in (0, 0, 10, 20)]
    store.write_skips(entries)
    newest_first = sorted(entries, key=lambda e: (e.last_scheduled_at, e.id), reverse=True)
    first = ids.skips(store, limit=2)
    assert first == newest_first[:2]
    cursor = SkipCursor(first[-1].last_scheduled_at, first[-1].id)
    assert ids.skips(store, before=cursor) == newest_first[2:]


def test_ledger_entries_of_another_task_or_tenant_are_not_read(store, ids):
    mine = ids.skip()
    store.write_skips(
        [mine, ids.skip(task_id=ids.other_task), ids.skip(tenant_id=ids.other_tenant)]
    )
    assert ids.skips(store) == [mine]
