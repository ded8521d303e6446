"""bench/burst_drain.py, the burst's drain rate against the executors' own, run small: one
pair of a throughput run and a burst, both delivered whole, and the ratio printed."""

import os
import re
import subprocess
import sys

import pytest

from tests.processes import ROOT


@pytest.fixture(scope="module")
def drain() -> subprocess.CompletedProcess:
    command = [sys.executable, "bench/burst_drain.py", "--jobs", "200", "--critical", "10"]
    command += ["--throughput-jobs", "200", "--rounds", "1", "--lead", "5"]
    done = subprocess.run(
        command, cwd=ROOT, env=os.environ, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_burst_is_delivered_whole_once(drain):
    row = re.search(r"^burst 1 .*$", drain.stdout, re.MULTILINE)
    assert row, drain.stdout
    # burst 1, p50, p99, last, prio 0 p99, calls/s, lost, dup, jobs by executor
    lost, duplicates = row.group(0).split()[7:9]
    assert (lost, duplicates) == ("0", "0"), row.group(0)


def test_it_prints_the_drain_ratio(drain):
    ratio = re.search(r"^drain ratio burst/throughput: ([\d.]+)", drain.stdout, re.MULTILINE)
    assert ratio and float(ratio.group(1)) > 0, drain.stdout
