"""The consistency levels reach the node: on a keyspace of 3 copies that one node holds
alone, a quorum write cannot be had (the archiver would keep its jobs), one copy can."""

import uuid

import pytest

from history.cassandra_store import CassandraHistoryStore
from history.records import HistoryUnavailable
from history.stores import close_history_stores, history_store
from scheduler_site.ids import new_id
from tests.history.test_cassandra_node import full_record


@pytest.fixture
def three_copy_keyspace(cassandra_node):
    hosts, port = cassandra_node
    keyspace = f"test_rf3_{uuid.uuid4().hex[:12]}"
    store = CassandraHistoryStore.connect(hosts, keyspace, port=port)
    store.create_schema({"class": "SimpleStrategy", "replication_factor": 3})
    yield keyspace
    store.session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}")
    store.close()


@pytest.fixture
def configured_store(settings, cassandra_node, three_copy_keyspace):
    def make(write: str, read: str):
        settings.HISTORY_BACKEND = "cassandra"
        settings.CASSANDRA_HOSTS, settings.CASSANDRA_PORT = cassandra_node
        settings.CASSANDRA_KEYSPACE = three_copy_keyspace
        settings.CASSANDRA_WRITE_CONSISTENCY = write
        settings.CASSANDRA_READ_CONSISTENCY = read
        close_history_stores()
        return history_store()

    yield make
    close_history_stores()


def test_a_quorum_write_fails_when_a_quorum_of_copies_cannot_be_reached(configured_store):
    store = configured_store("LOCAL_QUORUM", "LOCAL_ONE")
    with pytest.raises(HistoryUnavailable, match="write failed") as failure:
        store.write([full_record(new_id(), new_id())])
    assert "Cannot achieve consistency level LOCAL_QUORUM" in str(failure.value.__cause__)


def test_a_quorum_read_fails_when_a_quorum_of_copies_cannot_be_reached(configured_store):
    store = configured_store("LOCAL_ONE", "LOCAL_QUORUM")
    with pytest.raises(HistoryUnavailable, match="read failed") as failure:
        store.get(tenant_id=new_id(), job_id=new_id())
    assert "Cannot achieve consistency level LOCAL_QUORUM" in str(failure.value.__cause__)


def test_one_copy_is_enough_at_local_one(configured_store):
    store = configured_store("LOCAL_ONE", "LOCAL_ONE")
    record = full_record(new_id(), new_id())
    store.write([record])
    assert store.get(tenant_id=record.tenant_id, job_id=record.id).id == record.id
