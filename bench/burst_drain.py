"""The burst's drain rate against the executors' own rate, in one sitting (issue 23).

Alternated for --rounds pairs on one nginx endpoint and one database: 2 executors on
--throughput-jobs jobs due now (bench/executor_throughput.py, jobs/s from insert to the last
success), and the burst of bench/burst.py (--jobs + --critical due in one second, calls/s
from the first call to the last). Prints each run, and the ratio the issue names:
    DATABASE_URL=mysql://root:@127.0.0.1:3306/wt_bench python bench/burst_drain.py
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.burst import Burst, add_burst_arguments, run_ours, split_by_executor  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.delivery import HEADERS  # noqa: E402
from bench.executor_throughput import executor_run  # noqa: E402
from bench.harness import recorded_endpoint, stop  # noqa: E402
from bench.report import table  # noqa: E402


def one_pair(n: int, args, endpoint) -> tuple[float, float, list]:
    """(throughput jobs/s, burst calls/s, the burst's row); which goes first swaps each pair."""
    burst = Burst(args.jobs, args.critical, args.executors, args.concurrency, args.lead)
    order = ("throughput", "burst") if n % 2 else ("burst", "throughput")
    rates: dict[str, float] = {}
    for variant in order:
        if variant == "throughput":
            rates[variant], _, _ = executor_run(
                args.executors,
                "uvloop",  # the executor's default loop, as the burst's executors run
                endpoint.url,
                args.throughput_jobs,
                args.concurrency,
                endpoint.work,
            )
        else:
            result = run_ours(f"burst {n}", burst, endpoint.url, endpoint.record, endpoint.work)
            row = [*result.row(), split_by_executor()]
            rates[variant] = len(result.delays) / result.span if result.span else 0.0
    return rates["throughput"], rates["burst"], row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_burst_arguments(parser, jobs=10000, critical=100, lead=25.0)
    parser.add_argument("--throughput-jobs", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=2, help="pairs, alternated")
    args = parser.parse_args()
    use_fresh_database("bench_drain")
    endpoint = recorded_endpoint("drain")
    pairs = []
    try:
        pairs = [one_pair(n, args, endpoint) for n in range(1, args.rounds + 1)]
    finally:
        stop(endpoint.process)
    print(machine_line())
    print(
        f"{args.executors} executors x concurrency {args.concurrency}, nginx endpoint; "
        f"throughput: {args.throughput_jobs} jobs due now; burst: {args.jobs} + "
        f"{args.critical} priority 0 due in one second; {args.rounds} pairs, alternated"
    )
    print(table([*HEADERS, "jobs by executor"], [row for _, _, row in pairs]))
    rows = [[f"pair {n}", round(t), round(b), b / t] for n, (t, b, _) in enumerate(pairs, 1)]
    print(table(["pair", "throughput jobs/s", "burst calls/s", "burst/throughput"], rows))
    ratio = sum(b for _, b, _ in pairs) / sum(t for t, _, _ in pairs)
    print(f"drain ratio burst/throughput: {ratio:.2f}   (goal >= 0.9)")


if __name__ == "__main__":
    main()
