"""Reads of the history for the console: a job by its id alone, the newest run of each task."""

import uuid

import pytest

from history.sql_store import SqlHistoryStore
from tests.history.test_history_contract import Ids


@pytest.fixture(params=["sql", "cassandra"])
def store(request, db):
    if request.param == "sql":
        return SqlHistoryStore()
    return request.getfixturevalue("cassandra_store")


def test_a_job_is_found_by_its_id_among_every_tenant(store):
    ids = Ids()
    written = ids.record()
    store.write([written, Ids().record()])
    tenants = [uuid.uuid4() for _ in range(100)] + [ids.tenant]
    assert store.find(job_id=written.id, tenant_ids=tenants) == written


def test_an_unknown_id_is_found_nowhere(store):
    ids = Ids()
    store.write([ids.record()])
    assert store.find(job_id=uuid.uuid4(), tenant_ids=[ids.tenant]) is None


def test_the_newest_run_of_each_task_is_read_in_one_batch(store):
    first, second, without = Ids(), Ids(), Ids()
    older, newest = first.record(minutes_ago=30), first.record(minutes_ago=5)
    only = second.record(minutes_ago=60 * 24 * 20)  # likely an older month's bucket
    store.write([older, newest, only])
    tasks = [(ids.tenant, ids.task) for ids in (first, second, without)]
    assert store.newest_runs(tasks=tasks) == {first.task: newest, second.task: only}


def test_no_task_reads_nothing(store):
    assert store.newest_runs(tasks=[]) == {}
