"""The failover scenario's two servers: their own free ports, and nothing left running
when they fail to start (the next run would find its port taken)."""

import socket

import pytest

from bench.reliability.mariadb_pair import MariaDBPair
from tests.processes import free_port


def test_two_pairs_on_one_machine_take_different_ports(tmp_path):
    first, second = MariaDBPair(tmp_path / "a"), MariaDBPair(tmp_path / "b")
    ports = {first.primary.port, first.replica.port, second.primary.port, second.replica.port}
    assert len(ports) == 4


def test_a_pair_that_fails_to_start_leaves_no_server_running(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        pair = MariaDBPair(tmp_path / "pair", ports=(free_port(), taken.getsockname()[1]))
        with pytest.raises(RuntimeError, match="is taken"):
            pair.start()
    assert pair.primary.popen is not None, "the primary should have started first"
    assert pair.primary.popen.poll() is not None, "the primary was left running"
    assert not (tmp_path / "pair").exists()
