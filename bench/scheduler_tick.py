"""Scheduler tick benchmark: 1,000 due cron tasks, distinct expressions and time zones.

Runs, in one process and one run (ratios are what count on a noisy machine):
  (a) the real tick (`tasks.tick.run_tick`);
  (b) the bare SQL of the same tick, next runs precomputed;
  (c) the per-task N+1 form (one INSERT and one UPDATE per task, one transaction);
  (d) the naive batched form (VALUES insert with every column, UPDATE ... CASE);
  (f) the floor: one multi-row INSERT of the same 1,000 job rows and a COMMIT;
  (g) the real tick of --due due tasks (10,000 by default) in one call (bench/tick_floor.py).
Each over --ticks ticks (default 30) on a table that also holds --idle not-yet-due tasks.
With --overlap, the same tasks' tick under each overlap policy instead (bench/overlap_tick.py).

    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/scheduler_tick.py
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench import overlap_tick, tick_floor  # noqa: E402
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.mariadb import wait_for_purge  # noqa: E402
from bench.report import Progress, table  # noqa: E402
from jobs.models import Job  # noqa: E402
from scheduler_site.ids import new_id  # noqa: E402
from scheduler_site.sqltools import datetime_param, uuid_param  # noqa: E402
from tasks import schedule, sql  # noqa: E402
from tasks.models import Task, Tenant  # noqa: E402
from tasks.services import bucket_for  # noqa: E402
from tasks.tick import _advances, _plan, run_tick  # noqa: E402

ZONES = sorted(z for z in schedule._zone_names() if "/" in z and not z.startswith("Etc"))


def distinct_expression(i: int) -> str:
    return f"{i % 60} {(i // 60) % 24} * * {i % 7}" if i % 2 else f"{i % 60} */{1 + i % 12} * * *"


def create_tasks(tenant: Tenant, count: int, due: bool, start: int) -> list[Task]:
    tasks = []
    for i in range(start, start + count):
        task_id = new_id()
        tasks.append(
            Task(
                id=task_id,
                tenant=tenant,
                name=f"t{i}",
                cron=distinct_expression(i),
                timezone=ZONES[i % len(ZONES)],
                url="https://93.184.216.34/hook",
                priority=i % 10,
                bucket=bucket_for(task_id),
                next_run_at=datetime(2026, 1, 1, tzinfo=UTC)
                if due
                else datetime(2099, 1, 1, tzinfo=UTC),
            )
        )
    Task.objects.bulk_create(tasks, batch_size=1000)
    return tasks


def reset(tasks: list[Task], base: datetime) -> None:
    """Make the measured tasks due again (at a new instant) and empty the queue."""
    Job.objects.all().delete()
    Task.objects.filter(id__in=[t.id for t in tasks]).update(status="active", next_run_at=base)


def measure_round_robin(variants: list[tuple[str, object]], tasks: list[Task], ticks: int):
    """Run the variants in turn, tick after tick, so machine noise hits them alike."""
    durations = {label: [] for label, _ in variants}
    statements = {label: 0 for label, _ in variants}
    progress = Progress(f"{ticks} ticks x {len(variants)}", ticks)
    for n in range(ticks):
        progress.update(n)
        base = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=37 * n)
        for label, tick in variants:
            reset(tasks, base)
            expected = getattr(tick, "due", len(tasks))  # a variant over more tasks says so
            if hasattr(tick, "before"):
                tick.before(base)
            settle()
            now = base + timedelta(seconds=1)
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                done = tick(now)
                durations[label].append((time.perf_counter() - started) * 1000)
            assert done == expected, f"{label}: {done} tasks ticked, expected {expected}"
            assert Job.objects.count() == expected
            statements[label] = max(statements[label], len(queries.captured_queries))
            if hasattr(tick, "after"):
                tick.after()
    progress.update(ticks)
    progress.close()
    results = {}
    for label, values in durations.items():
        values.sort()
        results[label] = {
            "median": statistics.median(values),
            "p95": values[int(0.95 * (len(values) - 1))],
            "statements": statements[label],
        }
    return results


UNSETTLED: list[int] = []  # the variants timed with the purge still going (a busy server)


def settle() -> None:
    """Wait out InnoDB's purge of the rows the last variant and the reset deleted or moved:
    a variant timed while the 10,000-task tick's jobs are purged behind it paid for them
    (the real tick, which follows it, measured 99 ms against 58 ms without it)."""
    with connection.cursor() as cursor:
        if not wait_for_purge(cursor):
            UNSETTLED.append(1)


def real_tick(now: datetime) -> int:
    schedule.next_run_after.cache_clear()
    return run_tick(now=now, batch_size=1000).selected


def bare_sql_tick_factory(tasks: list[Task]):
    """The same statements as the real tick, with the Python planning done beforehand."""

    def tick(now: datetime) -> int:
        with transaction.atomic(), connection.cursor() as cursor:
            due = sql.select_due(
                cursor, priorities=range(10), due_before=now, limit=1000, bucket_ranges=None
            )
            jobs, advances = precomputed[now]
            sql.insert_jobs(cursor, jobs, now)
            sql.advance_tasks(cursor, advances)
        return len(due)

    precomputed: dict = {}

    def prepare(now: datetime, base: datetime) -> None:
        due = [
            sql.DueTask(
                str(t.id),
                t.cron,
                t.timezone,
                base,
                t.misfire_policy,
                None,
                None,
                None,
                0,
                t.overlap,
                None,
                None,
            )  # fmt: skip
            for t in tasks
        ]
        jobs, plans, _ = _plan(due, now)
        precomputed[now] = (jobs, _advances(None, due, plans, now))

    return tick, prepare


def n_plus_one_tick(now: datetime) -> int:
    with transaction.atomic(), connection.cursor() as cursor:
        due = sql.select_due(
            cursor, priorities=range(10), due_before=now, limit=1000, bucket_ranges=None
        )
        stamp = datetime_param(now)
        for task in due:
            following = schedule.next_cron_run(
                task.cron, task.timezone, str(task.id), task.next_run_at
            )
            cursor.execute(
                "INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status,"
                " attempt, max_attempts, next_attempt_at, timeout_seconds,"
                " backoff_base_seconds, created_at, updated_at)"
                " SELECT %s, tenant_id, id, next_run_at, priority, 'pending', 0, max_attempts,"
                " next_run_at, timeout_seconds, backoff_base_seconds, %s, %s"
                " FROM tasks WHERE id = %s ON DUPLICATE KEY UPDATE jobs.id = jobs.id",
                [uuid_param(new_id()), stamp, stamp, uuid_param(task.id)],
            )
            cursor.execute(
                "UPDATE tasks SET next_run_at = %s WHERE id = %s",
                [datetime_param(following), uuid_param(task.id)],
            )
    return len(due)


def naive_batched_tick(now: datetime) -> int:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, tenant_id, cron, timezone, next_run_at, priority, max_attempts,"
            " timeout_seconds, backoff_base_seconds FROM tasks"
            " WHERE status = 'active' AND next_run_at <= %s"
            " ORDER BY priority, next_run_at LIMIT 1000 FOR UPDATE",
            [datetime_param(now)],
        )
        rows = cursor.fetchall()
        stamp = datetime_param(now)
        values, params, cases, case_params = [], [], [], []
        for row in rows:
            due = row[4].replace(tzinfo=UTC)
            following = schedule.next_cron_run(row[2], row[3], str(row[0]), due)
            values.append("(%s,%s,%s,%s,%s,'pending',0,%s,%s,%s,%s,%s,%s)")
            params += [
                uuid_param(new_id()),
                row[1],
                row[0],
                datetime_param(due),
                row[5],
                row[6],
                datetime_param(due),
                row[7],
                row[8],
                stamp,
                stamp,
            ]
            cases.append("WHEN %s THEN %s")
            case_params += [row[0], datetime_param(following)]
        cursor.execute(
            "INSERT INTO jobs (id, tenant_id, task_id, scheduled_at, priority, status, attempt,"
            " max_attempts, next_attempt_at, timeout_seconds, backoff_base_seconds, created_at,"
            " updated_at) VALUES " + ",".join(values) + " ON DUPLICATE KEY UPDATE id = id",
            params,
        )
        ids = [row[0] for row in rows]
        cursor.execute(
            "UPDATE tasks SET next_run_at = CASE id " + " ".join(cases) + " END"
            " WHERE id IN (" + ",".join(["%s"] * len(ids)) + ")",
            case_params + ids,
        )
    return len(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=30)
    parser.add_argument("--idle", type=int, default=20000, help="not-yet-due tasks")
    parser.add_argument(
        "--due", type=int, default=10000, help="due tasks of the growth tick (0: none)"
    )
    parser.add_argument(
        "--overlap", action="store_true", help="the tick by overlap policy (bench/overlap_tick.py)"
    )
    args = parser.parse_args()
    use_fresh_database("bench")
    tenant = Tenant.objects.create(name="bench")
    create_tasks(tenant, args.idle, due=False, start=1000)
    tasks = create_tasks(tenant, 1000, due=True, start=0)
    extra = create_tasks(tenant, max(args.due - 1000, 0), due=False, start=1000 + args.idle)
    if args.overlap:
        print(machine_line())
        overlap_tick.report(tasks, args.ticks)
        return
    bare_tick, prepare = bare_sql_tick_factory(tasks)
    floor_tick, prepare_floor = tick_floor.floor_tick_factory(tasks)
    for n in range(max(args.ticks, 2)):  # the warm-up ticks at the first two instants
        base = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=37 * n)
        prepare(base + timedelta(seconds=1), base)
        prepare_floor(base + timedelta(seconds=1), base)
    print(machine_line())
    print(
        f"1000 due cron tasks ({len(set(map(distinct_expression, range(1000))))} distinct"
        f" expressions, {len({t.timezone for t in tasks})} time zones), {args.idle} idle"
        f" tasks, {args.ticks} ticks each"
    )
    variants = [
        ("a real tick", real_tick),
        ("b bare SQL", bare_tick),
        ("c N+1", n_plus_one_tick),
        ("d naive batched", naive_batched_tick),
        ("f floor: INSERT + COMMIT", floor_tick),
    ]
    grown = tick_floor.Grown(tasks, extra) if extra else None
    if grown:
        variants.append((grown.label, grown))
    # The 31,000 fixture objects this process holds are not the scheduler's: a full
    # collection that walks them in the middle of a timed tick would charge it for them.
    gc.collect()
    gc.freeze()
    measure_round_robin(variants, tasks, 2)  # warm-up
    measured = measure_round_robin(variants, tasks, args.ticks)
    results = {label[0]: measured[label] for label, _ in variants}
    rows = [
        [label, measured[label]["median"], measured[label]["p95"], measured[label]["statements"]]
        for label, _ in variants
    ]
    print(table(["variant", "median ms", "p95 ms", "statements/tick"], rows))
    a, b, c, d, f = (results[k]["median"] for k in "abcdf")
    print(f"ratio a/b: {a / b:.2f}   (goal <= 1.1)")
    print(f"ratio a/floor: {a / f:.2f}   (goal <= 2.0)")
    print(f"ratio c/a: {c / a:.1f}")
    print(f"ratio d/a: {d / a:.2f}")
    if grown:
        g = results["g"]["median"]
        print(f"ratio tick {grown.due}/1000: {g / a:.2f}   (goal <= 8)")
    print(f"median a: {a:.1f} ms   (goal <= 54 ms)")
    print(f"variants timed before the purge was done: {len(UNSETTLED)} (0: every one settled)")


if __name__ == "__main__":
    main()
