"""An executor's memory does not grow with what its endpoints' replies inflate to."""

from pathlib import Path

import pytest

from jobs.models import Job
from tests.processes import ManagedProcess, wait_until

pytestmark = pytest.mark.django_db(transaction=True)

# Before issue 17's fix, 40 of these replies took an executor from 89 MB to 1,099 MB.
GROWTH_ALLOWED = 50 * 1024 * 1024


def memory_kib(pid: int, field: str) -> int:
    """VmRSS (now) or VmHWM (the peak so far) of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def test_forty_compression_bombs_keep_the_executors_memory_bounded(endpoint, make_job, tmp_path):
    args = ["run_executor", "--worker-id", "rss", "--poll-interval", "0.2"]
    process = ManagedProcess(args, tmp_path / "rss.log", env={"EGRESS_ALLOW": "127.0.0.0/8"})
    try:
        wait_until(lambda: "executor claimed=" in process.log(), timeout=30, message="idle")
        before = memory_kib(process.popen.pid, "VmRSS")
        jobs = [make_job(endpoint.url(f"/bomb/gzip?n={n}")) for n in range(40)]
        ids = [job.id for job in jobs]

        def recorded_within_bounds() -> bool:
            peak = memory_kib(process.popen.pid, "VmHWM")  # the peak so far
            assert (peak - before) * 1024 < GROWTH_ALLOWED, f"{before} KiB, then {peak} KiB"
            return Job.objects.filter(id__in=ids, status="succeeded").count() == 40

        wait_until(recorded_within_bounds, timeout=60, message="the calls were not recorded")
        recorded_within_bounds()
    finally:
        process.stop(timeout=30)
