"""bench/commit_probe.py, SCALING.md's commit floor, run as its command is given there (on
the suite's MariaDB server, briefly): a rate for each number of connections, and its
scratch database gone afterwards."""

import os
import re
import subprocess
import sys

import MySQLdb
import pytest

from bench import mariadb
from tests.processes import ROOT


@pytest.fixture(scope="module")
def probe() -> subprocess.CompletedProcess:
    command = [
        sys.executable,
        "bench/commit_probe.py",
        "--seconds",
        "0.3",
        "--connections",
        "1",
        "2",
    ]
    done = subprocess.run(
        command, cwd=ROOT, env=os.environ, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done


def test_it_prints_a_commit_rate_for_each_number_of_connections(probe):
    rates = re.findall(r"^(\d+) connections: ([\d,]+) commits/s$", probe.stdout, re.MULTILINE)
    assert [count for count, _ in rates] == ["1", "2"], probe.stdout
    assert all(int(rate.replace(",", "")) > 0 for _, rate in rates)


def test_it_names_the_machine_and_the_servers_flush_setting(probe):
    assert "MariaDB" in probe.stdout and "innodb_flush_log_at_trx_commit=" in probe.stdout


def test_it_drops_its_scratch_database(probe):
    settings, name = mariadb.server()
    connection = MySQLdb.connect(**settings)
    cursor = connection.cursor()
    cursor.execute("SHOW DATABASES LIKE %s", [f"{name}_commit_probe"])
    assert cursor.fetchall() == ()
    connection.close()
