"""Scenario 13: the queue's MariaDB primary killed (SIGKILL) under the steady mix, its
semi-synchronous replica promoted and the campaign's TCP proxy, standing for the DNS or
proxy switch of RDS, MaxScale or ProxySQL, moved to it. No process is restarted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import MySQLdb
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from bench.reliability.mariadb_pair import MariaDBPair
from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import Timeline, start_all
from bench.reliability.scenarios.steady import TAIL_SECONDS, steady_load
from execution.models import ProcessHeartbeat

# How long the switch takes to notice the dead primary and promote: a managed failover's
# detection is seconds to tens of seconds; the processes see a database that refuses them.
DETECTION_SECONDS = 3.0
LOOP_PROCESSES = 5  # one scheduler, two executors, the reconciler and the archiver


def failover(ctx: Context) -> Outcome:
    pair = MariaDBPair().start()
    try:
        with harness_through_proxy(ctx, pair.primary.port):
            return under_failover(ctx, pair)
    finally:
        ctx.stack.stop_all()  # before the servers go: the processes must stop cleanly
        pair.remove()


@contextmanager
def harness_through_proxy(ctx: Context, primary_port: int) -> Iterator[None]:
    """The campaign's own connection (tenants, dead jobs, heartbeats) takes the proxy
    too, so the switch moves it with the processes; it points back afterwards."""
    ctx.stack.proxy.move_to("127.0.0.1", primary_port)
    db = settings.DATABASES["default"]
    saved = {key: db[key] for key in ("HOST", "PORT")}
    connection.close()
    db.update(HOST="127.0.0.1", PORT=str(ctx.stack.proxy.port))
    try:
        create_database(primary_port, db["NAME"])
        call_command("migrate", verbosity=0)
        yield
    finally:
        connection.close()
        db.update(saved)


def create_database(port: int, name: str) -> None:
    raw = MySQLdb.connect(host="127.0.0.1", port=port, user="root")
    raw.cursor().execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
    raw.close()


def under_failover(ctx: Context, pair: MariaDBPair) -> Outcome:
    start_all(ctx)
    expected = steady_load(ctx)
    moments: dict[str, float] = {}
    notes: dict[str, object] = {}

    def kill_and_promote() -> None:
        notes["semi-sync before the kill"] = semi_sync_figures(pair)
        with ctx.faults.window("primary SIGKILL, replica promoted"):
            moments["kill"] = time.time()
            pair.primary.kill()
            time.sleep(DETECTION_SECONDS)
            notes["promotion"] = pair.promote()
            ctx.stack.proxy.move_to("127.0.0.1", pair.replica.port)
            moments["switch"] = time.time()

    timeline = Timeline([(ctx.steady_seconds * 0.4, kill_and_promote)])
    seen = ctx.wait_for(expected, timeout=ctx.steady_seconds + TAIL_SECONDS, during=timeline)
    outcome = ctx.outcome(expected)
    outcome.notes.update(notes)
    outcome.checks["the primary was killed and the replica promoted"] = timeline.finished
    if not timeline.finished:
        return outcome
    kill, switch = moments["kill"], moments["switch"]
    after_switch = first_delivery_after(seen, switch)
    outcome.notes["kill to switch s"] = round(switch - kill, 2)
    outcome.notes["kill to first delivery s"] = first_delivery_after(seen, kill)
    outcome.notes["kill to first delivery after the switch s"] = (
        round(after_switch + switch - kill, 2) if after_switch is not None else None
    )
    beating = processes_beating_since(switch)
    outcome.notes["processes with a good turn on the new primary"] = beating
    semi = notes["semi-sync before the kill"]
    outcome.checks["semi-sync stayed on, no commit went out asynchronously"] = (
        semi["status"] == "ON" and semi["no_tx"] == 0 and semi["yes_tx"] > 0
    )
    outcome.checks["every process recovered by itself"] = beating >= LOOP_PROCESSES
    outcome.checks["no run made twice"] = outcome.as_json()["runs_made_twice"] == 0
    return outcome


def semi_sync_figures(pair: MariaDBPair) -> dict:
    status = pair.semi_sync_status()
    return {
        "status": status["Rpl_semi_sync_master_status"],
        "yes_tx": int(status["Rpl_semi_sync_master_yes_tx"]),
        "no_tx": int(status["Rpl_semi_sync_master_no_tx"]),
        "clients": int(status["Rpl_semi_sync_master_clients"]),
    }


def first_delivery_after(seen, moment: float) -> float | None:
    arrivals = [a.at for calls in seen.arrivals.values() for a in calls if a.delivered]
    later = [at for at in arrivals if at > moment]
    return round(min(later) - moment, 2) if later else None


def processes_beating_since(moment: float) -> int:
    """Loop processes (by instance) that finished a good turn on the promoted server."""
    since = datetime.fromtimestamp(moment, UTC)
    return ProcessHeartbeat.objects.filter(last_seen__gt=since).count()
