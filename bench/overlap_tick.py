"""The tick of 1,000 due tasks under each overlap policy, round-robin in one run (issue 18).

Variants, on the same 1,000 tasks made due again before each tick, each task remembering
its newest run as a running schedule does (tasks/overlap.py):
  allow          the default: no overlap statement (its last run finished, as below);
  skip, free     overlap `skip`, its last run finished: every run is made (the goal:
                 <= 1.1 x allow);
  skip, busy     overlap `skip`, each task with a running job: every run is skipped and
                 recorded in the ledger (1,000 new entries);
  skip, history  as free, with 10 finished jobs per task left in the jobs table (kept until
                 the archiver takes them);
  skip, first    overlap `skip`, no job at all and none remembered: the task's first tick,
                 or the one after a run now, a backfill or a retry (read through the run key).

    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/scheduler_tick.py --overlap
"""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime, timedelta

from django.db import connection

from bench.report import Progress, table
from jobs.models import Job
from scheduler_site.sqltools import datetime_param
from tasks import schedule
from tasks.models import SkippedRun, Task
from tasks.tick import run_tick

SETTLE_SECONDS = 1.0

# (label, overlap policy, unfinished job per task, finished jobs per task)
VARIANTS = [
    ("allow", "allow", False, 1),
    ("skip, free", "skip", False, 1),
    ("skip, busy", "skip", True, 0),
    ("skip, history", "skip", False, 10),
    ("skip, first", "skip", False, 0),
]

ADD_JOBS = """
INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,
    max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, created_at,
    updated_at, finished_at, lease_expires_at, run_now)
SELECT UUID(), tenant_id, id, %s - INTERVAL %s MINUTE, priority, %s, 1, 5, %s, 30, 10, %s, %s,
    IF(%s = 'running', NULL, %s), IF(%s = 'running', %s, NULL), FALSE
FROM tasks WHERE id IN (SELECT id FROM tasks WHERE name LIKE 'o%%')
"""


REMEMBER_NEWEST = """
UPDATE tasks AS t SET t.overlap_job_id = (
    SELECT j.id FROM jobs AS j WHERE j.task_id = t.id ORDER BY j.scheduled_at DESC LIMIT 1)
WHERE t.name = 'o'
"""


def setup(tasks: list[Task], base: datetime, policy: str, busy: bool, finished: int) -> None:
    """The variant's state: tasks due at `base` with its policy, its jobs, an empty ledger."""
    Job.objects.all().delete()
    SkippedRun.objects.all().delete()
    Task.objects.filter(id__in=[t.id for t in tasks]).update(
        status="active", next_run_at=base, overlap=policy, open_skip_id=None, open_skip_reason=None
    )
    rows = [("running", 1)] if busy else []
    rows += [("succeeded", minutes) for minutes in range(2, 2 + finished)]
    stamp = datetime_param(base)
    with connection.cursor() as cursor:
        for status, minutes in rows:
            params = [stamp, minutes, status, stamp, stamp, stamp, status, stamp, status, stamp]
            cursor.execute(ADD_JOBS, params)
        # As a running schedule keeps it: each task remembers its newest run (tasks/overlap.py).
        cursor.execute(REMEMBER_NEWEST)
    # The reset just deleted the previous variant's jobs of these very tasks: until InnoDB
    # purges them, each probe of the run key walks their delete-marked entries too, which
    # no production tick meets (measured: +40 ms on the skip tick, nothing on allow's).
    time.sleep(SETTLE_SECONDS)


def rename_measured(tasks: list[Task]) -> None:
    """ADD_JOBS finds the measured tasks by name (the idle ones start at t1000)."""
    Task.objects.filter(id__in=[t.id for t in tasks]).update(name="o")


def measure(tasks: list[Task], ticks: int) -> dict[str, dict]:
    durations: dict[str, list[float]] = {label: [] for label, *_ in VARIANTS}
    progress = Progress(f"{ticks} ticks x {len(VARIANTS)}", ticks)
    for n in range(ticks):
        progress.update(n)
        base = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=37 * n)
        order = VARIANTS if n % 2 == 0 else VARIANTS[::-1]  # no variant always runs first
        for label, policy, busy, finished in order:
            setup(tasks, base, policy, busy, finished)
            schedule.next_run_after.cache_clear()
            started = time.perf_counter()
            result = run_tick(now=base + timedelta(seconds=1), batch_size=1000)
            durations[label].append((time.perf_counter() - started) * 1000)
            assert result.selected == len(tasks), f"{label}: {result.selected} selected"
            assert result.jobs == (0 if busy else len(tasks)), f"{label}: {result.jobs} jobs"
    progress.update(ticks)
    progress.close()
    return {label: _summary(values) for label, values in durations.items()}


def _summary(values: list[float]) -> dict:
    values.sort()
    return {"median": statistics.median(values), "p95": values[int(0.95 * (len(values) - 1))]}


def report(tasks: list[Task], ticks: int) -> None:
    rename_measured(tasks)
    measure(tasks, 2)  # warm-up
    results = measure(tasks, ticks)
    print(f"1000 due cron tasks by overlap policy, {ticks} ticks each, round-robin")
    rows = [[label, r["median"], r["p95"]] for label, r in results.items()]
    print(table(["variant", "median ms", "p95 ms"], rows))
    allow = results["allow"]["median"]
    for label in ("skip, free", "skip, busy", "skip, history", "skip, first"):
        goal = "   (goal <= 1.1)" if label == "skip, free" else ""
        print(f"ratio {label} / allow: {results[label]['median'] / allow:.2f}{goal}")
