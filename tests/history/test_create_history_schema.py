"""`create_history_schema` on a real node: a keyspace that already exists with another
replication is an error naming the ALTER to run, never "ready" (the archiver would take
its one copy for the quorum of three the operator asked for)."""

import uuid

import pytest
from django.core.management import CommandError, call_command

from history.cassandra_store import CassandraHistoryStore


@pytest.fixture
def keyspace(settings, cassandra_node):
    settings.CASSANDRA_HOSTS, settings.CASSANDRA_PORT = cassandra_node
    settings.CASSANDRA_KEYSPACE = f"test_ks_{uuid.uuid4().hex[:12]}"
    yield settings.CASSANDRA_KEYSPACE
    store = CassandraHistoryStore.connect(
        *cassandra_node[:1], settings.CASSANDRA_KEYSPACE, port=cassandra_node[1]
    )
    store.session.execute(f"DROP KEYSPACE IF EXISTS {settings.CASSANDRA_KEYSPACE}")
    store.close()


def test_a_keyspace_of_one_copy_asked_for_three_is_refused_naming_the_alter(keyspace):
    call_command("create_history_schema", "--replication", "SimpleStrategy:1")
    with pytest.raises(
        CommandError, match=f"ALTER KEYSPACE {keyspace} .*'replication_factor': '3'"
    ):
        call_command("create_history_schema", "--replication", "SimpleStrategy:3")


def test_the_same_replication_again_is_ready(keyspace, capsys):
    call_command("create_history_schema", "--replication", "SimpleStrategy:3")
    call_command("create_history_schema", "--replication", "SimpleStrategy:3")
    assert capsys.readouterr().out.count(f"keyspace {keyspace} ready") == 2
