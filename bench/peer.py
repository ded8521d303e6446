"""Celery 5 + Redis against this project on the same burst, in one run, against the same
nginx endpoint: N calls + some at priority 0 due in one second. Celery gets each call with
`apply_async(eta=T)` ahead of time (prefork, 4 workers); this project gets one-off tasks
(bench/burst.py: one scheduler, two executors). Start delay is the arrival at the endpoint
minus T; prints both runs' figures, our p99 beside Celery's and their ratio.
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

BROKER_DB = 9


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


def run_celery(name: str, burst: Burst, url: str, record: Path, work: Path) -> Delivery:
    broker = f"redis://127.0.0.1:6379/{BROKER_DB}"
    redis.Redis(db=BROKER_DB).flushdb()
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
        redis.Redis(db=BROKER_DB).flushdb()
    return delivery(name, read_calls(record), groups, len(groups))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--critical", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=1, help="ours then Celery, N times")
    parser.add_argument("--lead", type=float, default=30.0)
    parser.add_argument("--png", default="bench/peer.png")
    args = parser.parse_args()
    burst = Burst(args.jobs, args.critical, lead=args.lead)
    use_fresh_database("peer")
    endpoint = recorded_endpoint("peer")
    url, record, work = endpoint.url, endpoint.record, endpoint.work
    results: list[Delivery] = []
    try:
        for n in range(1, args.rounds + 1):
            results.append(run_ours(f"ours {n}", burst, url, record, work))
            results.append(run_celery(f"celery {n}", burst, url, record, work))
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(
        f"burst: {burst.jobs:,} + {burst.critical} priority 0 due at T, nginx endpoint; ours:"
        f" 1 scheduler + 2 executors x 200; Celery 5 + Redis: prefork 4, apply_async(eta=T)"
    )
    print(table(HEADERS, [result.row() for result in results]))
    for ours, celery in zip(results[::2], results[1::2], strict=True):
        ratio = celery.p(0.99) / ours.p(0.99)
        print(
            f"{ours.name} vs {celery.name}: p99 {ours.p(0.99):.2f} s vs {celery.p(0.99):.2f} s,"
            f" Celery / ours = {ratio:.1f}x (goal >= 5x)"
        )
    title = f"calls started after T, {burst.jobs:,}+{burst.critical} due at once"
    started_curve_png(Path(args.png), title, {r.name: r.delays for r in results})
    print(f"plot: {args.png}")


if __name__ == "__main__":
    main()
