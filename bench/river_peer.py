"""The peer a Go shop would pick for "call this URL at T": River on Postgres (bench/river,
built by scripts/build_river_peer.sh). The burst's keys go to the Go program in a file; it
inserts them all scheduled at T in one COPY and works them with one River client, and the
endpoint's log measures it as it measures Celery and this project."""

from __future__ import annotations

import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.burst import wait_for_calls
from bench.delivery import Delivery, LogCounter, delivery, read_calls
from bench.harness import ROOT, stop

POSTGRES = ("127.0.0.1", 55432)  # scripts/ensure_postgres.sh's own cluster
DATABASE_URL = "postgres://postgres@127.0.0.1:55432/river_peer"


def build() -> Path:
    """The River peer's binary, built (or found up to date) by scripts/build_river_peer.sh."""
    script = ROOT / "scripts" / "build_river_peer.sh"
    done = subprocess.run([script], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{script.name} failed:\n{done.stderr}")
    return Path(done.stdout.strip())


def require_postgres() -> None:
    """Fails, naming the script that starts it, when the peer's Postgres does not answer."""
    with socket.socket() as probe:
        if probe.connect_ex(POSTGRES) != 0:
            raise RuntimeError(
                f"Postgres is not answering on {POSTGRES[0]}:{POSTGRES[1]};"
                " start it with scripts/ensure_postgres.sh"
            )


def burst_keys(jobs: int, critical: int) -> dict[str, str]:
    """A fresh key per call, mapped to its group as bench.delivery counts them."""
    groups = {str(uuid.uuid4()): "rest" for _ in range(jobs)}
    return groups | {str(uuid.uuid4()): "critical" for _ in range(critical)}


@dataclass(frozen=True)
class RiverRun:
    binary: Path
    workers: int = 200  # MaxWorkers of the client's one queue
    database_url: str = DATABASE_URL  # dropped and made anew by each run


def start_river(
    binary: Path, groups: dict[str, str], due: datetime, url: str, work: Path, run: RiverRun
) -> subprocess.Popen:
    """The Go program, once its jobs are in and its client runs (it touches a ready file)."""
    keys, ready, log = work / "river-keys.csv", work / "river.ready", work / "river.log"
    keys.write_text("".join(f"{key},{group}\n" for key, group in groups.items()))
    ready.unlink(missing_ok=True)
    args = [binary, "-database-url", run.database_url, "-workers", str(run.workers)]
    args += ["-keys", keys, "-due", due.isoformat(), "-url", url, "-ready", ready]
    with log.open("ab") as output:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(args, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process)
            raise RuntimeError(f"the River peer did not get ready; its log:\n{log.read_text()}")
        time.sleep(0.1)
    return process


def run_river(name: str, burst, url: str, record: Path, work: Path, *, run: RiverRun) -> Delivery:
    """One burst through River: `burst` gives jobs, critical and lead as bench.burst.Burst."""
    require_postgres()
    groups = burst_keys(burst.jobs, burst.critical)
    due = (datetime.now(UTC) + timedelta(seconds=burst.lead)).replace(microsecond=0)
    counter = LogCounter(record)
    process = start_river(run.binary, groups, due, url, work, run)
    try:
        wait_for_calls(name, counter, len(groups), due.timestamp())
    finally:
        stop(process)
    return delivery(name, read_calls(record), groups, len(groups))


def river_states(work: Path) -> str:
    """River's own count of its last run's jobs by state, as the Go program logged it when it
    stopped (the log holds every run's lines: the last run's follow its last insert)."""
    lines = (work / "river.log").read_text().splitlines()
    last = max((n for n, line in enumerate(lines) if " inserted " in line), default=0)
    states = [line.split("river_job ", 1)[1] for line in lines[last:] if "river_job " in line]
    return ", ".join(states)
