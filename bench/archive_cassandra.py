"""Archive throughput: N finished jobs leave MariaDB's jobs table for the history, once into
the SQL history table and once into the real Cassandra node, in the same run.

For each store it prints two rates: the history write alone (the store's `write` of the
same records, nothing else) and the whole archive (`archive_batch` in a loop: read a batch
from the queue, write it to the history, delete it from the queue).
    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler CASSANDRA_HOSTS=127.0.0.1 \
        python bench/archive_cassandra.py --jobs 100000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.report import Progress, table  # noqa: E402
from history.cassandra_consistency import Consistency  # noqa: E402
from history.cassandra_store import CassandraHistoryStore  # noqa: E402
from history.models import JobHistory  # noqa: E402
from history.records import HistoryStore  # noqa: E402
from history.sql_store import SqlHistoryStore  # noqa: E402
from jobs.archive import archive_batch, job_record  # noqa: E402
from jobs.models import Job  # noqa: E402
from scheduler_site.cassandra_env import default_consistency, parse_replication  # noqa: E402
from scheduler_site.ids import new_id  # noqa: E402
from tasks.models import Task, Tenant  # noqa: E402
from tasks.services import bucket_for  # noqa: E402

FINISHED = datetime.now(UTC) - timedelta(hours=2)
SERVICES = Path(__file__).resolve().parent.parent / "run" / "services"


def cassandra_cpu_seconds() -> float | None:
    """User + system CPU of every Cassandra JVM the ensure scripts started (their pid files
    in run/services), None when there is none to read."""
    total, found = 0.0, False
    for pid_file in SERVICES.glob("cassandra*.pid"):
        try:
            fields = Path(f"/proc/{pid_file.read_text().strip()}/stat").read_text().split()
        except OSError:
            continue
        total += (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
        found = True
    return total if found else None


def fill_queue(jobs: int) -> None:
    """`jobs` succeeded jobs, finished two hours ago, spread over 100 tasks."""
    tenant = Tenant.objects.create(name=f"bench-{uuid.uuid4().hex[:6]}")
    tasks = []
    for _ in range(100):
        task_id = new_id()
        tasks.append(
            Task.objects.create(
                id=task_id,
                tenant=tenant,
                url="https://93.184.216.34/hook",
                run_at=FINISHED,
                status="completed",
                bucket=bucket_for(task_id),
            )
        )
    rows = (
        Job(
            tenant=tenant,
            task=tasks[n % 100],
            scheduled_at=FINISHED - timedelta(seconds=n),
            next_attempt_at=FINISHED - timedelta(seconds=n),
            status="succeeded",
            attempt=1,
            started_at=FINISHED,
            finished_at=FINISHED,
            http_status=200,
            response_body="ok",
            duration_ms=12,
        )
        for n in range(jobs)
    )
    Job.objects.bulk_create(rows, batch_size=5000)


def timed_write(store: HistoryStore, batch_size: int) -> float:
    """Rows/s of the history write alone, for the records now in the queue."""
    records = [job_record(job) for job in Job.objects.order_by("id").iterator(chunk_size=5000)]
    started = time.perf_counter()
    for start in range(0, len(records), batch_size):
        store.write(records[start : start + batch_size])
    return len(records) / (time.perf_counter() - started)


def timed_archive(store: HistoryStore, batch_size: int, jobs: int) -> tuple[float, int]:
    """Rows/s of the whole archive until the queue is empty; returns (rate, rows moved)."""
    moved, started = 0, time.perf_counter()
    progress = Progress(f"archive to {type(store).__name__}", jobs)
    while True:
        progress.update(moved)
        written, deleted = archive_batch(batch_size=batch_size, store=store)
        if not written:
            break
        assert written == deleted, (written, deleted)
        moved += deleted
    progress.close()
    return moved / (time.perf_counter() - started), moved


def clear_sql_history() -> None:
    JobHistory.objects.all()._raw_delete(JobHistory.objects.db)


def clear_cassandra(store: CassandraHistoryStore) -> None:
    for name in ("job_history", "job_by_id"):
        store.session.execute(f"TRUNCATE {store.keyspace}.{name}")


def cassandra_store() -> CassandraHistoryStore:
    hosts = os.environ.get("CASSANDRA_HOSTS", "127.0.0.1").split(",")
    port = int(os.environ.get("CASSANDRA_PORT", "9042"))
    replication = parse_replication(os.environ.get("CASSANDRA_REPLICATION", "SimpleStrategy:1"))
    level = default_consistency(replication)
    store = CassandraHistoryStore.connect(
        hosts,
        f"bench_{uuid.uuid4().hex[:12]}",
        port=port,
        consistency=Consistency(write=level, read=level),
    )
    store.create_schema(replication)
    return store


def measure(name: str, store: HistoryStore, jobs: int, batch_size: int, clear) -> dict:
    fill_queue(jobs)
    write_rate = timed_write(store, batch_size)
    clear()  # the archive then inserts, as it would in production, rather than overwrites
    cpu_before = cassandra_cpu_seconds()
    archive_rate, moved = timed_archive(store, batch_size, jobs)
    cpu_after = cassandra_cpu_seconds()
    assert moved == jobs and not Job.objects.exists(), "jobs left in the queue"
    cpu = None
    if cpu_before is not None and cpu_after is not None:
        cpu = (cpu_after - cpu_before) * 1000 / jobs
    return {"write": write_rate, "archive": archive_rate, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--batch-size", type=int, default=500)
    args = parser.parse_args()
    use_fresh_database("archive_bench")
    cassandra = cassandra_store()
    version = cassandra.session.execute("SELECT release_version FROM system.local").one()[0]
    nodes = len(cassandra.session.cluster.metadata.all_hosts())
    replication = os.environ.get("CASSANDRA_REPLICATION", "SimpleStrategy:1")
    print(machine_line() + f", Cassandra {version} ({nodes} node(s), {replication})")
    print(f"{args.jobs:,} finished jobs, batches of {args.batch_size}")
    try:
        sql = measure("sql", SqlHistoryStore(), args.jobs, args.batch_size, clear_sql_history)
        cql = measure(
            "cassandra", cassandra, args.jobs, args.batch_size, lambda: clear_cassandra(cassandra)
        )
    finally:
        cassandra.session.execute(f"DROP KEYSPACE IF EXISTS {cassandra.keyspace}")
        cassandra.close()
    rows = [
        [name, round(rates["write"]), round(rates["archive"])]
        for name, rates in (("sql", sql), ("cassandra", cql))
    ]
    rows.append(["cassandra / sql", cql["write"] / sql["write"], cql["archive"] / sql["archive"]])
    print(table(["store", "write alone rows/s", "whole archive rows/s"], rows))
    if cql["cpu"] is not None:
        print(f"Cassandra JVMs' CPU per 1,000 archived jobs: {cql['cpu']:.2f} s")


if __name__ == "__main__":
    main()
