"""The twelve scenarios of issue 12 and the failover of issue 22 (13), by the name the
command line takes."""

from __future__ import annotations

from dataclasses import dataclass

from bench.reliability.runner import Scenario
from bench.reliability.scenarios import (
    archiver,
    bursts,
    endpoints,
    executors,
    failover,
    steady,
)


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    run: Scenario


SCENARIOS = {
    entry.name: entry
    for entry in (
        Entry(
            "01-burst",
            "30,000 one-off jobs due in one second, plus 300 at priority 0",
            bursts.burst,
        ),
        Entry("02-steady", "the steady mix: 20,000 cron tasks in 12 time zones", steady.steady),
        Entry(
            "03-executor-killed",
            "an executor killed (SIGKILL) with 500 calls in flight",
            executors.executor_killed,
        ),
        Entry(
            "04-scheduler-killed",
            "one of two schedulers killed (SIGKILL) mid-tick",
            steady.scheduler_killed,
        ),
        Entry(
            "05-archiver-killed",
            "the archiver killed between history write and delete, 5x",
            archiver.archiver_killed,
        ),
        Entry(
            "06-database-cut", "the database cut for 30 s under the steady mix", steady.database_cut
        ),
        Entry(
            "07-failing-endpoint",
            "500 for 2 minutes then 200; 429 with Retry-After",
            endpoints.failing_endpoint,
        ),
        Entry(
            "08-stall-trickle",
            "endpoints that stall or trickle past the timeout",
            endpoints.stalls_and_trickles,
        ),
        Entry(
            "09-executor-paused",
            "an executor paused (SIGSTOP) past its leases, resumed",
            executors.executor_paused,
        ),
        Entry(
            "10-noisy-neighbour",
            "20,000 jobs of a noisy tenant beside 100 of a quiet one",
            bursts.noisy_neighbour,
        ),
        Entry(
            "11-executor-sigterm",
            "2 schedulers, 3 executors; one executor SIGTERM midway",
            steady.executor_sigterm,
        ),
        Entry(
            "12-mariadb-restarted",
            "MariaDB restarted under the steady mix",
            steady.mariadb_restarted,
        ),
        Entry(
            "13-mariadb-failover",
            "the MariaDB primary killed, its semi-sync replica promoted, under the steady mix",
            failover.failover,
        ),
    )
}
