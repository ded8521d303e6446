"""The capacity model's unit costs: CPU seconds of each part per 1,000 jobs over the whole row
life, measured on the real processes.

N one-off tasks due over S seconds are created (as the API's insert would), then one
scheduler turns them into jobs, one executor calls nginx, one archiver moves them into
Cassandra and deletes them from the queue. Before and after, /proc/<pid>/stat of mariadbd,
the scheduler, the executor, the archiver and every Cassandra node gives each part's CPU;
each part's idle rate (measured first, for a few seconds with nothing due) is taken out,
since the machine, MariaDB and Cassandra are shared. MariaDB's global write counters give
the statements and InnoDB row changes per job the same way.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/h22_scaling CASSANDRA_HOSTS=127.0.0.1 \
        python bench/capacity.py --jobs 20000 --seconds 20
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.burst import create_tasks, wait_for_calls  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.cpu import CpuMeter  # noqa: E402
from bench.delivery import LogCounter  # noqa: E402
from bench.harness import (  # noqa: E402
    ROOT,
    recorded_endpoint,
    start_manage,
    stop,
    tenant_with_room,
)
from bench.part_meters import PartMeters, pid_listening  # noqa: E402
from bench.report import table  # noqa: E402
from bench.server_status import COUNTERS, StatusMeter  # noqa: E402
from jobs.models import Job  # noqa: E402

LOOKAHEAD = 5.0


def history_env(hosts: str, keyspace: str) -> None:
    """The archiver (started from this environment) writes to Cassandra at once."""
    os.environ.update(
        HISTORY_BACKEND="cassandra",
        CASSANDRA_HOSTS=hosts,
        CASSANDRA_KEYSPACE=keyspace,
        ARCHIVE_SUCCEEDED_AFTER_SECONDS="0",
    )


def create_schema(replication: str | None, log: Path) -> None:
    args = [sys.executable, "manage.py", "create_history_schema"]
    args += ["--replication", replication] if replication else []
    with open(log, "ab") as out:
        subprocess.run(args, cwd=ROOT, check=True, stdout=out, stderr=subprocess.STDOUT)


def drop_keyspace(hosts: str, keyspace: str) -> None:
    from history.cassandra_store import CassandraHistoryStore

    store = CassandraHistoryStore.connect(hosts.split(","), keyspace)
    try:
        store.session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}", timeout=60)
    except Exception as exc:  # a loaded cluster may time out a schema change: keep the figures
        print(f"keyspace {keyspace} not dropped ({exc}); drop it by hand", file=sys.stderr)
    finally:
        store.close()


def start_parts(work: Path) -> dict[str, subprocess.Popen]:
    return {
        "scheduler": start_manage(
            ["run_scheduler", "--tick", "1", "--lookahead", str(LOOKAHEAD)], work / "sched.log"
        ),
        "executor": start_manage(
            ["run_executor", "--concurrency", "200", "--worker-id", "capacity"],
            work / "executor.log",
        ),
        "archiver": start_manage(["run_archiver", "--interval", "1"], work / "archiver.log"),
    }


def meters_for(processes: dict[str, subprocess.Popen], hosts: str) -> PartMeters:
    meters = PartMeters()
    meters.add("mariadbd", [CpuMeter.mariadb().pid])
    for name, process in processes.items():
        meters.add(name, [process.pid])
    meters.add("cassandra", [pid_listening(host, 9042) for host in hosts.split(",")])
    return meters


def spread_tasks(url: str, jobs: int, seconds: int) -> None:
    """`jobs` one-off tasks, an even share due in each of `seconds` seconds after a lead that
    lets the scheduler see the first ones within its lookahead."""
    tenant = tenant_with_room()
    first = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=LOOKAHEAD + 3)
    for n in range(seconds):
        create_tasks(tenant, url, jobs // seconds, first + timedelta(seconds=n), 5)
    connection.close()


def wait_until_archived(timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while Job.objects.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{Job.objects.count()} jobs still in the queue after {timeout}s")
        time.sleep(0.5)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=20_000)
    parser.add_argument("--seconds", type=int, default=20, help="the due times' spread")
    parser.add_argument("--idle", type=float, default=8.0, help="seconds of idle measurement")
    parser.add_argument(
        "--replication", default=None, help="as CASSANDRA_REPLICATION (e.g. SimpleStrategy:3)"
    )
    args = parser.parse_args()
    jobs = args.jobs // args.seconds * args.seconds
    hosts = os.environ.get("CASSANDRA_HOSTS", "127.0.0.1")
    keyspace = f"h22_scaling_capacity_{uuid.uuid4().hex[:8]}"
    use_fresh_database("capacity")
    endpoint = recorded_endpoint("capacity")
    history_env(hosts, keyspace)
    create_schema(args.replication, endpoint.work / "schema.log")
    processes = start_parts(endpoint.work)
    load = [os.getloadavg()]
    try:
        meters, status = meters_for(processes, hosts), StatusMeter()
        meters.settle(set(processes))
        for meter in (meters, status):
            meter.start()
        time.sleep(args.idle)
        for meter in (meters, status):
            meter.stop()
            meter.take_idle()
        meters.start()
        status.start()
        spread_tasks(endpoint.url, jobs, args.seconds)
        due = time.time() + LOOKAHEAD + 3
        wait_for_calls("calls", LogCounter(endpoint.record), jobs, due)
        wait_until_archived(timeout=300)
        meters.stop()
        status.stop()
        load.append(os.getloadavg())
    finally:
        for process in processes.values():
            stop(process)
        stop(endpoint.process)
        drop_keyspace(hosts, keyspace)
    report(args, jobs, hosts, meters, status, load)


def report(args, jobs: int, hosts: str, meters: PartMeters, status: StatusMeter, load) -> None:
    replication = args.replication or os.environ.get("CASSANDRA_REPLICATION", "SimpleStrategy:1")
    print(machine_line())
    print(
        f"{jobs:,} one-off tasks due over {args.seconds} s; 1 scheduler, 1 executor x 200,"
        f" 1 archiver -> Cassandra {hosts} (replication {replication});"
        f" window {meters.seconds:.1f} s; load average before {load[0][0]:.2f},"
        f" after {load[-1][0]:.2f}"
    )
    rows, total = [], 0.0
    for part in meters.parts:
        net = meters.net(part)
        total += net
        rows.append([part.name, part.spent, part.idle_rate, net, f"{1000 * net / jobs:.3f}"])
    rows.append(["all parts", "", "", total, f"{1000 * total / jobs:.3f}"])
    # ms of CPU per job is also CPU seconds per 1,000 jobs
    headers = ["part", "CPU s", "idle CPU s/s", "net CPU s", "CPU s per 1,000 jobs"]
    print(table(headers, rows))
    print(f"\nMariaDB's global counters over the {status.seconds:.1f} s window:")
    # Raw per job is an upper bound (others' work on the shared server counts too); with the
    # idle rate taken out it is a lower bound when their load fell during the window.
    counters = [
        [
            name,
            status.delta[name],
            f"{status.delta[name] / jobs:.3f}",
            f"{status.net(name) / jobs:.3f}",
        ]
        for name in COUNTERS
    ]
    print(table(["counter", "delta", "per job (raw)", "per job (idle out)"], counters))


if __name__ == "__main__":
    main()
