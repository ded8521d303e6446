"""The result write's cost with and without the per-minute counts, in one run.

Jobs of 20 tenants due now are claimed in batches and their results written with
record_results (the executor's statement path), alternating rounds with the counts' upsert
on and off (off: the step replaced by nothing); prints the mean ms per batch of each.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/result_write.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.harness import insert_due_jobs, tenant_with_room  # noqa: E402
from jobs.queue import JobResult, claim_jobs, record_results  # noqa: E402
from jobs.queue import results as result_step  # noqa: E402

COUNTING = result_step.add_minute_counts


def one_batch(size: int, counted: bool) -> float:
    """ms of one record_results of `size` results of jobs claimed just before."""
    result_step.add_minute_counts = COUNTING if counted else (lambda *args: None)
    batch = claim_jobs(
        worker_id="bench", critical_limit=size, normal_limit=size, lookahead_seconds=0
    )
    now = datetime.now(UTC)
    results = [
        JobResult(j.key, j.attempt, "succeeded", finished_at=now, http_status=200, started_at=now)
        for j in batch.jobs
    ]
    started = time.perf_counter()
    record_results(worker_id="bench", results=results)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    use_fresh_database("result_write")
    tenants = [tenant_with_room() for _ in range(20)]
    for tenant in tenants:
        insert_due_jobs(tenant, "https://example.com/", args.batch * args.rounds * 2 // 20)
    print(machine_line())
    times: dict[bool, list[float]] = {True: [], False: []}
    for index in range(args.rounds * 2):
        counted = index % 2 == 0
        times[counted].append(one_batch(args.batch, counted))
    for counted, label in ((False, "without counts"), (True, "with counts")):
        runs = times[counted][2:]  # the first rounds warm the buffer pool
        print(
            f"{label}: mean {statistics.mean(runs):.2f} ms, median {statistics.median(runs):.2f} ms"
            f" per batch of {args.batch}"
        )


if __name__ == "__main__":
    main()
