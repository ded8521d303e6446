"""The reliability campaign of issue 12: twelve scenarios of load and faults, each against
real processes on a MariaDB server of the campaign's own (started here, stopped at the
end), with nginx as the tenant endpoint logging every call.

    python bench/campaign.py                       # all twelve, full size
    python bench/campaign.py 03-executor-killed    # only the ones named
    python bench/campaign.py --scale 0.2 --steady-seconds 180

Per scenario: figures printed and saved as JSON, a PNG of start delay over time with the
faults marked; at the end a summary table (Markdown). Exit status 1 if anything was lost
or a check failed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")  # fresh keys, real Redis

from bench.reliability.mariadb import PrivateMariaDB  # noqa: E402
from bench.reliability.setup import campaign_database, configure_django  # noqa: E402


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", help="names (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every job count")
    parser.add_argument("--steady-seconds", type=float, default=600.0)
    # Absolute from here on: nginx reads the endpoint's paths relative to its own prefix.
    parser.add_argument("--out", default="bench/campaign-results", type=resolved)
    parser.add_argument("--no-progress", action="store_true")
    return parser.parse_args()


def resolved(folder: str) -> Path:
    return Path(folder).resolve()


def raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main() -> int:
    args = arguments()
    signal.signal(signal.SIGTERM, raise_interrupt)  # stopped like Ctrl-C: clean up first
    server = PrivateMariaDB().install()
    server.start()
    try:
        configure_django(server.port)
        return run_all(args, server)
    finally:
        server.remove()


def run_all(args: argparse.Namespace, server: PrivateMariaDB) -> int:
    from bench.reliability import report
    from bench.reliability.pictures_of import picture
    from bench.reliability.processes import Settings
    from bench.reliability.runner import run_scenario
    from bench.reliability.scenarios import SCENARIOS

    names = args.scenarios or list(SCENARIOS)
    unknown = set(names) - set(SCENARIOS)
    if unknown:
        raise SystemExit(f"unknown scenarios: {sorted(unknown)}; known: {list(SCENARIOS)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for name in names:
        entry = SCENARIOS[name]
        database = campaign_database(server.port, name)
        settings = Settings(database, server.port, out, server=server)
        started = time.time()
        outcome = run_scenario(
            entry.run,
            name=name,
            title=entry.title,
            settings=settings,
            work=out / name,
            scale=args.scale,
            progress=not args.no_progress,
            steady_seconds=args.steady_seconds,
        )
        figures = outcome.as_json()
        figures["command"] = command_for(name, args)
        figures["started_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started))
        report.save(figures, out)
        picture(outcome, out / f"{name}.png")
        print(report.block(figures), flush=True)
        results.append(figures)
        # Written after every scenario: an interrupted campaign keeps what it measured.
        (out / "summary.json").write_text(json.dumps(results, indent=2))
    print(report.table(results))
    failed = [f for f in results if f["lost"] or not all(f["checks"].values())]
    return 1 if failed else 0


def command_for(name: str, args: argparse.Namespace) -> str:
    return (
        f"python bench/campaign.py {name} --scale {args.scale} "
        f"--steady-seconds {args.steady_seconds:.0f}"
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted: every process was stopped", file=sys.stderr)
        sys.exit(130)
