"""CASSANDRA_REPLICATION's syntax, and the consistencies it implies when none is set."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from scheduler_site.cassandra_env import (
    default_consistency,
    env_consistency,
    env_replication,
    parse_replication,
)


def test_simple_strategy_takes_one_factor():
    assert parse_replication("SimpleStrategy:3") == {
        "class": "SimpleStrategy",
        "replication_factor": 3,
    }


def test_network_topology_takes_a_factor_per_data_centre():
    assert parse_replication("NetworkTopologyStrategy:dc1=3, dc2=2") == {
        "class": "NetworkTopologyStrategy",
        "dc1": 3,
        "dc2": 2,
    }


@pytest.mark.parametrize(
    "text",
    [
        "SimpleStrategy",
        "SimpleStrategy:0",
        "SimpleStrategy:three",
        "NetworkTopologyStrategy:",
        "NetworkTopologyStrategy:dc1=3,dc1=2",
        "NetworkTopologyStrategy:dc1=0",
        "LocalStrategy:1",
    ],
)
def test_a_replication_that_cannot_be_read_is_refused_with_the_syntax(text):
    with pytest.raises(ValueError, match="SimpleStrategy:FACTOR or NetworkTopologyStrategy"):
        parse_replication(text)


def test_the_default_is_one_copy(monkeypatch):
    monkeypatch.delenv("CASSANDRA_REPLICATION", raising=False)
    assert env_replication("CASSANDRA_REPLICATION") == {
        "class": "SimpleStrategy",
        "replication_factor": 1,
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SimpleStrategy:1", "LOCAL_ONE"),
        ("SimpleStrategy:2", "LOCAL_ONE"),
        ("SimpleStrategy:3", "LOCAL_QUORUM"),
        ("NetworkTopologyStrategy:dc1=3,dc2=5", "LOCAL_QUORUM"),
        ("NetworkTopologyStrategy:dc1=3,dc2=1", "LOCAL_ONE"),
    ],
)
def test_quorum_is_the_default_once_every_data_centre_keeps_three_copies(text, expected):
    assert default_consistency(parse_replication(text)) == expected


def test_a_consistency_set_overrides_the_default_in_any_case(monkeypatch):
    monkeypatch.setenv("CASSANDRA_WRITE_CONSISTENCY", "quorum")
    assert env_consistency("CASSANDRA_WRITE_CONSISTENCY", "LOCAL_ONE") == "QUORUM"


def test_any_is_refused_for_it_counts_a_hint_as_a_copy(monkeypatch):
    monkeypatch.setenv("CASSANDRA_WRITE_CONSISTENCY", "ANY")
    with pytest.raises(ImproperlyConfigured, match="CASSANDRA_WRITE_CONSISTENCY must be one of"):
        env_consistency("CASSANDRA_WRITE_CONSISTENCY", "LOCAL_ONE")
