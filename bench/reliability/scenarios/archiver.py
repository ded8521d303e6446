"""Scenario 5: the archiver killed between its history write and its delete, 5 times.

To stop it exactly there, the harness holds row locks on every succeeded job (a
transaction of its own, straight to MariaDB): the archiver reads without locking and
writes the history, then its DELETE waits on those locks; it is killed while it waits.
"""

from __future__ import annotations

import time
from datetime import timedelta

import MySQLdb
import requests
from django.db import connection
from django.utils import timezone

from bench.reliability.report import Outcome
from bench.reliability.runner import Context
from bench.reliability.scenarios.common import count_jobs, due_in
from bench.reliability.workload import expected_runs, one_off
from history.models import JobHistory
from jobs.models import Job

KILLS = 5
UNKNOWN_THREAD = 1094
WAIT_SECONDS = 60.0
ARCHIVER_ENV = {"ARCHIVE_SUCCEEDED_AFTER_SECONDS": "0"}
UNFINISHED = ("pending", "running")
# The archiver's DELETE in this run's database (a parallel run's is not ours to kill), in
# its statement for long enough to be waiting: the harness holds every row it can delete,
# which it deletes in milliseconds otherwise. Not from INNODB_TRX: InnoDB refreshes that
# view only after 0.1 s without a reader, so polling it often can read it stale for minutes.
DELETE_WAITING = (
    "SELECT ID FROM information_schema.PROCESSLIST WHERE DB = DATABASE() "
    "AND COMMAND = 'Query' AND INFO LIKE 'DELETE%%' AND TIME_MS >= 300"
)


def archiver_killed(ctx: Context) -> Outcome:
    ctx.stack.api()
    ctx.stack.scheduler()
    for n in range(2):
        ctx.stack.executor(f"executor-{n}")
    ctx.stack.reconciler()
    ctx.stack.wait_ready()
    due = due_in(5)
    tasks = ctx.create(one_off(ctx.endpoint, "ok", "archived", ctx.n(5_000), due))
    expected = expected_runs(tasks, due + timedelta(days=1))
    ctx.wait_for(expected, timeout=300)
    # Every result written before the harness locks the finished rows: its locks (gaps of
    # the wake index included) would hold an executor's last result write, not the archiver.
    ctx.wait_for(expected, timeout=60, until=lambda _: count_jobs(status__in=UNFINISHED) == 0)
    rounds = [_kill_between_writes(ctx, n) for n in range(KILLS)]
    ctx.stack.manage("archiver", "run_archiver", "--interval", "1", extra=ARCHIVER_ENV)
    ctx.wait_for(expected, timeout=300, until=lambda _: count_jobs(status="succeeded") == 0)
    outcome = ctx.outcome(expected)
    keys = {key for keys in outcome.seen.delivered.values() for key in keys}
    archived = {str(i) for i in JobHistory.objects.values_list("id", flat=True)}
    queued = {str(i) for i in Job.objects.values_list("id", flat=True)}
    outcome.notes["rounds"] = rounds
    outcome.notes["jobs in neither store"] = len(keys - archived - queued)
    outcome.checks["5 kills between the history write and the delete"] = all(
        r["history_rows_written_before_kill"] > 0 for r in rounds
    )
    outcome.checks["every delivered job is in the history"] = keys <= archived
    outcome.checks["the queue emptied"] = not queued
    outcome.checks["a job in both stores is listed once"] = all(r["listed_once"] for r in rounds)
    return outcome


def _kill_between_writes(ctx: Context, n: int) -> dict:
    """One round: lock, start an archiver, kill it while its DELETE waits, unlock."""
    db = connection.settings_dict
    locker = MySQLdb.connect(
        host=db["HOST"], port=int(db["PORT"]), user=db["USER"], passwd=db["PASSWORD"], db=db["NAME"]
    )
    try:
        cursor = locker.cursor()
        cursor.execute("BEGIN")
        cursor.execute("SELECT id FROM jobs WHERE status = 'succeeded' FOR UPDATE")
        _wait_for_no_waiting_delete(locker)  # the last round's, ended by now
        began = timezone.now()
        name = f"archiver-{n}"
        ctx.stack.manage(name, "run_archiver", "--interval", "1", extra=ARCHIVER_ENV)
        thread = _wait_for_waiting_delete(locker)
        written = JobHistory.objects.filter(archived_at__gte=began).count()
        ctx.faults.instant(f"archiver SIGKILL {n + 1} between writes")
        ctx.stack.kill(name)
        # MariaDB does not watch a client's socket while its statement waits on a lock: the
        # dead archiver's DELETE would still run once the locks go. A crash of the whole
        # connection (a lost machine) ends it, so the harness ends it too.
        _end_thread(locker, thread)
        listed_once = _listed_once(ctx)
        locker.rollback()
    finally:
        locker.close()
    return {
        "history_rows_written_before_kill": written,
        "queued_jobs_after_kill": count_jobs(),
        "listed_once": listed_once,
    }


def _wait_for_waiting_delete(locker: MySQLdb.Connection) -> int:
    """The server thread of the archiver's DELETE, once it waits on the harness's locks."""
    watcher = locker.cursor()
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        watcher.execute(DELETE_WAITING)
        row = watcher.fetchone()
        if row:
            return row[0]
        time.sleep(0.1)
    raise RuntimeError("the archiver's delete never waited on the harness's locks")


def _end_thread(locker: MySQLdb.Connection, thread: int) -> None:
    try:
        locker.cursor().execute(f"KILL {int(thread)}")
    except MySQLdb.OperationalError as exc:
        if exc.args[0] != UNKNOWN_THREAD:  # already ended by the server: as wanted
            raise


def _wait_for_no_waiting_delete(locker: MySQLdb.Connection) -> None:
    watcher = locker.cursor()
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        watcher.execute(DELETE_WAITING)
        if not watcher.fetchall():
            return
        time.sleep(0.1)
    raise RuntimeError("a killed archiver's DELETE still waits")


def _listed_once(ctx: Context) -> bool:
    """A job now in both stores, read through the API's task runs: listed once."""
    both = JobHistory.objects.filter(id__in=Job.objects.values("id")).first()
    if both is None:
        return False
    response = requests.get(
        f"{ctx.stack.api_url}/v1/tasks/{both.task_id}/jobs",
        headers={"Authorization": f"Bearer {ctx.tokens['tenant']}"},
        timeout=30,
    )
    return response.status_code == 200 and len(response.json()["results"]) == 1
