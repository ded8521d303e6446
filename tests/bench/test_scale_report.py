"""What the scale benchmark prints: the ratios the issue names, with their goals."""

import subprocess
import sys

from bench.delivery import Delivery
from bench.scale_herd import PeakRss, herd_report
from bench.scale_report import report

LABELS = ("20,000 tasks", "1,000,000 tasks")


def test_the_report_prints_each_figures_ratio_with_the_ticks_goal():
    small = [{"tick 1,000 due": 10.0, "claim 1,000": 4.0}] * 3
    large = [{"tick 1,000 due": 11.0, "claim 1,000": 8.0}] * 3
    text = report(small, large, LABELS)
    assert (
        "ratio tick 1,000 due, 1,000,000 tasks / 20,000 tasks: 1.10x   (goal <= 1.2x: met)" in text
    )
    assert "ratio claim 1,000, 1,000,000 tasks / 20,000 tasks: 2.00x" in text


def test_the_report_takes_the_median_of_the_rounds():
    small = [{"tick 1,000 due": v} for v in (10.0, 10.0, 99.0)]
    large = [{"tick 1,000 due": v} for v in (15.0, 1.0, 15.0)]
    assert "1.50x   (goal <= 1.2x: NOT met)" in report(small, large, LABELS)


def test_the_herd_report_prints_calls_per_second_against_the_burst():
    burst = Delivery("burst", [0.1] * 1000, [], 0, 0, 1.0)
    herd = Delivery("herd", [0.1] * 9500, [], 0, 0, 10.0)
    text = herd_report([(burst, 100.0), (herd, 120.0)], max_held=10_000)
    assert "ratio herd/burst calls/s: 0.95   (goal >= 0.9, 0 lost: met)" in text
    assert "executor max RSS 120 MiB with --max-held 10000" in text


def test_the_peak_rss_is_read_from_a_live_process():
    ready = "print(flush=True); input()"
    child = subprocess.Popen(
        [sys.executable, "-c", ready], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        child.stdout.readline()  # the interpreter is up: its peak is several MiB
        peak = PeakRss(processes=[child])
        peak.sample()
        assert peak.max_mib() > 1
    finally:
        child.communicate(b"\n")


def test_a_count_that_is_zero_at_the_small_size_has_no_division_by_zero():
    small = [{"tick 1,000 due: pages read from disk": 0}]
    large = [{"tick 1,000 due: pages read from disk": 40}]
    assert "pages read from disk, 1,000,000 tasks / 20,000 tasks: infx" in report(
        small, large, LABELS
    )
