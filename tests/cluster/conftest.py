"""The cluster tests run only under `make test-cluster`, on the 3-node cluster that
scripts/ensure_cassandra_cluster.sh starts (CASSANDRA_CLUSTER_FIRST, 127.0.0.1 by
default); a cluster that does not answer fails them, naming the script. Each test leaves
every node up again, whatever it killed."""

from __future__ import annotations

import os
import uuid

import pytest

from history.cassandra_consistency import Consistency
from history.cassandra_store import CassandraHistoryStore
from tests.cluster.cluster import NODES, SCRIPT, Cluster

FACTOR_3 = "SimpleStrategy:3"


@pytest.fixture(scope="session")
def cluster() -> Cluster:
    cluster = Cluster(
        os.environ.get("CASSANDRA_CLUSTER_FIRST", "127.0.0.1"),
        int(os.environ.get("CASSANDRA_PORT", "9042")),
    )
    up = cluster.answering()
    if len(up) != NODES:
        pytest.fail(
            f"the Cassandra cluster answers on {up or 'no node'} of {cluster.hosts}: "
            f"start it with {SCRIPT} {NODES} (make test-cluster does)",
            pytrace=False,
        )
    return cluster


@pytest.fixture(autouse=True)
def every_node_up_after(cluster):
    yield
    if len(cluster.answering()) != NODES:
        cluster.restore()


@pytest.fixture(scope="session")
def quorum_store(cluster):
    """A keyspace of 3 copies for this session, read and written at LOCAL_QUORUM."""
    keyspace = f"test_cluster_{uuid.uuid4().hex[:12]}"
    store = CassandraHistoryStore.connect(
        cluster.hosts,
        keyspace,
        port=cluster.port,
        consistency=Consistency(write="LOCAL_QUORUM", read="LOCAL_QUORUM"),
    )
    store.create_schema({"class": "SimpleStrategy", "replication_factor": 3})
    yield store
    # A schema change waits for every node to agree: longer than a read on a busy cluster.
    store.session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}", timeout=120)
    store.close()


@pytest.fixture
def cluster_env(cluster, quorum_store) -> dict:
    """What a process needs for its history on the cluster, at the defaults of factor 3."""
    return {
        "HISTORY_BACKEND": "cassandra",
        "CASSANDRA_HOSTS": cluster.contact_points(),
        "CASSANDRA_PORT": str(cluster.port),
        "CASSANDRA_KEYSPACE": quorum_store.keyspace,
        "CASSANDRA_REPLICATION": FACTOR_3,
    }
