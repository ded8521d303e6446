"""What jobs_dead_letters_idx costs the queue's hot writes: the insert of due jobs, their
claim and their result write, on a jobs table with the index against one without it,
round-robin in one run (each layout first every other round).

Both layouts are migrated databases of their own, `<name>_dlq_with` and `<name>_dlq_without`
(there the index is dropped; its VIRTUAL column, unindexed, is never computed on a write);
each step switches with `USE`. One result in --dead-every dies, so a death's index write is
in the figure too.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/dead_letters_index.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.harness import insert_due_jobs, tenant_with_room  # noqa: E402
from jobs.queue import JobResult, claim_jobs, record_results  # noqa: E402
from tasks.models import Tenant  # noqa: E402

STEPS = ("insert", "claim", "result write")


def use(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"USE `{name}`")


def prepare(with_index: bool, background: int) -> tuple[str, Tenant]:
    """A migrated database with `background` finished jobs; the index dropped if asked."""
    name = use_fresh_database("dlq_with" if with_index else "dlq_without")
    tenant = tenant_with_room()
    insert_due_jobs(tenant, "https://example.com/", background)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE jobs SET status = 'succeeded', finished_at = NOW(6)")
        if not with_index:
            cursor.execute("ALTER TABLE jobs DROP INDEX jobs_dead_letters_idx")
        cursor.execute("ANALYZE TABLE jobs")
        cursor.fetchall()
    return name, tenant


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return (time.perf_counter() - started) * 1000, result


def one_round(tenant: Tenant, size: int, dead_every: int) -> dict[str, float]:
    """ms of each step for `size` jobs: inserted due, claimed, their results written."""
    insert, _ = timed(lambda: insert_due_jobs(tenant, "https://example.com/", size))
    claim, batch = timed(
        lambda: claim_jobs(
            worker_id="b", critical_limit=size, normal_limit=size, lookahead_seconds=0
        )
    )
    assert len(batch.jobs) == size, f"claimed {len(batch.jobs)} of {size}"
    now = datetime.now(UTC)
    results = [
        JobResult(
            j.key,
            j.attempt,
            "dead" if n % dead_every == 0 else "succeeded",
            finished_at=now,
            http_status=200,
            started_at=now,
        )
        for n, j in enumerate(batch.jobs)
    ]
    write, _ = timed(lambda: record_results(worker_id="b", results=results))
    return dict(zip(STEPS, (insert, claim, write), strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--background", type=int, default=100_000, help="finished jobs")
    parser.add_argument("--dead-every", type=int, default=50)
    args = parser.parse_args()
    layouts = {"with the DLQ index": prepare(True, args.background)}
    layouts["without it"] = prepare(False, args.background)
    try:
        compare(layouts, args)
    finally:
        with connection.cursor() as cursor:
            for name, _tenant in layouts.values():
                cursor.execute(f"DROP DATABASE IF EXISTS `{name}`")


def compare(layouts: dict[str, tuple[str, Tenant]], args: argparse.Namespace) -> None:
    print(machine_line())
    print(
        f"{args.batch} jobs a round, {args.rounds} rounds each (2 warm-up), alternated;"
        f" {args.background:,} finished jobs beside; 1 in {args.dead_every} dies"
    )
    figures: dict[str, list[dict]] = {label: [] for label in layouts}
    for n in range(args.rounds + 2):
        for label in list(layouts) if n % 2 else list(layouts)[::-1]:
            name, tenant = layouts[label]
            use(name)
            figures[label].append(one_round(tenant, args.batch, args.dead_every))
    medians = {
        label: {step: statistics.median(r[step] for r in runs[2:]) for step in STEPS}
        for label, runs in figures.items()
    }
    with_index, without = medians.values()
    for step in STEPS:
        print(
            f"{step:>12}: with {with_index[step]:7.1f} ms, without {without[step]:7.1f} ms,"
            f" ratio {with_index[step] / without[step]:.2f} (median per {args.batch} jobs)"
        )


if __name__ == "__main__":
    main()
