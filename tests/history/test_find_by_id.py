"""A job read back by its id alone (the console's archived pages), on every history store."""

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
