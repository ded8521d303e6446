"""Celery 5 + Redis and River + Postgres against this project on the same burst, in one run,
against the same nginx endpoint: N calls + some at priority 0 due in one second. Celery gets
each call with `apply_async(eta=T)` ahead of time (prefork, 4 workers); River gets them all
inserted scheduled at T in one COPY (bench/river: one Go client, 200 workers); this project
gets one-off tasks (bench/burst.py: one scheduler, two executors). Start delay is the arrival
at the endpoint minus T; prints every run's figures, and each peer's p99 against ours.
    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/peer.py --rounds 2
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
import redis  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.burst import Burst, run_ours, wait_for_calls  # noqa: E402
from bench.celery_peer import app, call  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.delivery import HEADERS, Delivery, LogCounter, delivery, read_calls  # noqa: E402
from bench.harness import ROOT, recorded_endpoint, stop  # noqa: E402
from bench.report import started_curve_png, table  # noqa: E402
from bench.river_peer import (  # noqa: E402
    RiverRun,
    build,
    require_postgres,
    river_states,
    run_river,
)

PEERS = ("celery", "river")


def start_celery(broker: str, log: Path, workers: int) -> subprocess.Popen:
    ready = log.with_suffix(".ready")
    ready.unlink(missing_ok=True)
    env = dict(os.environ, PEER_BROKER=broker, PEER_READY=str(ready))
    args = [sys.executable, "-m", "celery", "-A", "bench.celery_peer", "worker", "-P"]
    args += ["prefork", "-c", str(workers), "--without-gossip", "--without-mingle"]
    # INFO would log two lines per task in the worker: a cost the measured run should not pay.
    args += ["--without-heartbeat", "-l", "WARNING", "--logfile", str(log)]
    worker = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    for _ in range(300):
        if ready.exists():
            return worker
        time.sleep(0.1)
    raise SystemExit(f"celery worker did not start; see {log}")


def run_celery(
    name: str, burst: Burst, url: str, record: Path, work: Path, *, broker_db: int
) -> Delivery:
    broker = f"redis://127.0.0.1:6379/{broker_db}"
    redis.Redis(db=broker_db).flushdb()
    worker = start_celery(broker, work / "celery.log", workers=4)
    app.conf.broker_url = broker
    due = (datetime.now(UTC) + timedelta(seconds=burst.lead)).replace(microsecond=0)
    stamp = due.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    groups = {str(uuid.uuid4()): "rest" for _ in range(burst.jobs)}
    groups |= {str(uuid.uuid4()): "critical" for _ in range(burst.critical)}
    counter = LogCounter(record)
    with app.producer_or_acquire() as producer:
        for key, group in groups.items():
            priority = 0 if group == "critical" else 5
            call.apply_async(
                (url, key, stamp), task_id=key, eta=due, priority=priority, producer=producer
            )
    if time.time() > due.timestamp():
        print(f"warning: {name} was still enqueuing at T; raise --lead", file=sys.stderr)
    try:
        wait_for_calls(name, counter, len(groups), due.timestamp())
    finally:
        stop(worker)
        redis.Redis(db=broker_db).flushdb()
    return delivery(name, read_calls(record), groups, len(groups))


def peer_list(text: str) -> list[str]:
    peers = [name.strip() for name in text.split(",") if name.strip()]
    unknown = sorted(set(peers) - set(PEERS))
    if unknown or not peers:
        raise argparse.ArgumentTypeError(f"peers are {', '.join(PEERS)}; not {unknown or text!r}")
    return peers


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--critical", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=1, help="ours then each peer, N times")
    parser.add_argument("--lead", type=float, default=30.0)
    parser.add_argument("--png", default="bench/peer.png")
    parser.add_argument(
        "--peers", type=peer_list, default=list(PEERS), help="comma-separated: celery,river"
    )
    parser.add_argument(
        "--broker-db", type=int, default=9, help="Celery's Redis db (flushed before and after)"
    )
    parser.add_argument("--river-workers", type=int, default=200, help="MaxWorkers of River")
    return parser.parse_args()


def runners(args: argparse.Namespace) -> dict[str, object]:
    """The chosen peers' run functions; River's binary is built before the first run."""
    chosen: dict[str, object] = {}
    if "celery" in args.peers:
        chosen["celery"] = lambda *run: run_celery(*run, broker_db=args.broker_db)
    if "river" in args.peers:
        require_postgres()
        river = RiverRun(build(), workers=args.river_workers)
        chosen["river"] = lambda *run: run_river(*run, run=river)
    return chosen


def describe(burst: Burst, args: argparse.Namespace) -> str:
    sides = ["ours: 1 scheduler + 2 executors x 200"]
    if "celery" in args.peers:
        sides.append(f"Celery 5 + Redis db {args.broker_db}: prefork 4, apply_async(eta=T)")
    if "river" in args.peers:
        sides.append(f"River + Postgres: 1 client x {args.river_workers}, InsertManyFast(at T)")
    jobs = f"burst: {burst.jobs:,} + {burst.critical} priority 0 due at T, nginx endpoint"
    return "; ".join([jobs, *sides])


def ratios(results: list[Delivery], per_round: int) -> list[str]:
    lines = []
    for n in range(0, len(results), per_round):
        ours, *peers = results[n : n + per_round]
        for peer in peers:
            lines.append(
                f"{ours.name} vs {peer.name}: p99 {ours.p(0.99):.2f} s vs {peer.p(0.99):.2f} s,"
                f" {peer.name.split()[0]} / ours = {peer.p(0.99) / ours.p(0.99):.1f}x"
            )
    return lines


def main() -> None:
    args = arguments()
    burst = Burst(args.jobs, args.critical, lead=args.lead)
    peers = runners(args)
    use_fresh_database("peer")
    endpoint = recorded_endpoint("peer")
    url, record, work = endpoint.url, endpoint.record, endpoint.work
    results: list[Delivery] = []
    try:
        for n in range(1, args.rounds + 1):
            results.append(run_ours(f"ours {n}", burst, url, record, work))
            for name, run in peers.items():
                results.append(run(f"{name} {n}", burst, url, record, work))
                if name == "river":
                    print(f"river {n}, River's job states: {river_states(work)}", file=sys.stderr)
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(describe(burst, args))
    print(table(HEADERS, [result.row() for result in results]))
    print("\n".join(ratios(results, 1 + len(peers))))
    title = f"calls started after T, {burst.jobs:,}+{burst.critical} due at once"
    started_curve_png(Path(args.png), title, {r.name: r.delays for r in results})
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
