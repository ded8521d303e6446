"""The whole life of a job row, batched as the project does, on several table layouts:
insert, claim (SKIP LOCKED read + UPDATE) with the results of the previous round in the same
transaction, archive read + delete. Measures MariaDB server CPU per job from /proc.

One client, scratch tables in a database of its own, N jobs over a table that keeps M other
rows (pending, due tomorrow); layouts run interleaved, the minimum of the runs is the figure
(the MariaDB server is shared with other work on this machine).
    python bench/row_life.py --jobs 50000 --others 200000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import uuid_utils

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import layouts as sql  # noqa: E402
from bench.cpu import CpuMeter  # noqa: E402
from bench.lean_checks import run_checks  # noqa: E402
from bench.mariadb import connect, machine_line, server, wait_for_purge  # noqa: E402
from bench.report import Progress, table  # noqa: E402

BATCH = {"insert": 1000, "claim": 200, "archive": 500}
CRITICAL_SHARE = 10  # one claim slot in ten for priority 0, as the executor keeps
WORKER = "bench-worker"
LEASE_MARGIN = 30


@dataclass
class Run:
    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)


def tenants(count: int, offset: int) -> list[str]:
    return [str(uuid.UUID(int=(offset + n) << 64 | 1)) for n in range(count)]


def job_id(layout: sql.Layout, task: str, at: str) -> str:
    if layout.unique_run_key:
        return str(uuid_utils.uuid7())
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{task}/{at}"))


def job_rows(layout: sql.Layout, count: int, due: datetime, owners: list[str], spread: bool):
    """[id, tenant, task, at, priority]: 1 in 100 at priority 0 (or every priority, spread)."""
    tasks = [str(uuid_utils.uuid7()) for _ in range(max(1, count // 50))]
    rows = []
    for n in range(count):
        task = tasks[n % len(tasks)]
        at = (due + timedelta(microseconds=n)).strftime("%Y-%m-%d %H:%M:%S.%f")
        priority = n % 10 if spread else (0 if n % 100 == 0 else 5)
        rows.append([job_id(layout, task, at), owners[n % len(owners)], task, at, priority])
    return rows


def insert_all(cursor, layout: sql.Layout, rows: list[list], label: str) -> None:
    progress = Progress(label, len(rows))
    for start in range(0, len(rows), BATCH["insert"]):
        cursor.execute("BEGIN")
        cursor.execute(sql.insert(layout), [json.dumps(rows[start : start + BATCH["insert"]])])
        cursor.execute("COMMIT")
        progress.update(start + BATCH["insert"])
    progress.close()


def prepare(cursor, layout: sql.Layout, others: int) -> None:
    for statement in sql.create_table(layout):
        cursor.execute(statement)
    tomorrow = datetime.now(UTC) + timedelta(days=1)
    rows = job_rows(layout, others, tomorrow, tenants(100, 1000), spread=True)
    insert_all(cursor, layout, rows, f"{layout.key}: {others:,} others")
    cursor.execute(f"ANALYZE TABLE {layout.table}")
    cursor.fetchall()


def fair_asks(groups: list[tuple], critical: int, normal: int) -> list[tuple[int, str, int]]:
    """Today's claim: each (priority, tenant) group an equal share of its slots."""
    zero = [g for g in groups if g[0] == 0]
    rest = [g for g in groups if g[0] != 0]
    asks = [(p, t, max(1, critical // len(zero))) for p, t, _ in zero]
    return asks + [(p, t, max(1, normal // len(rest))) for p, t, _ in rest]


def candidates(cursor, layout: sql.Layout) -> list[str]:
    critical = BATCH["claim"] // CRITICAL_SHARE
    normal = BATCH["claim"] - critical
    if layout.lean and not layout.by_tenant:
        cursor.execute(sql.due_priorities(layout))
        due = [row[0] for row in cursor.fetchall()]
        normal_due = [p for p in due if p != 0]
        asks = [(p, critical if p == 0 else max(1, normal // len(normal_due))) for p in due]
        if not asks:
            return []
        parts = [sql.claim_part(layout, n, p, False) for n, (p, _) in enumerate(asks)]
        params = [count for _, count in asks]
    else:
        cursor.execute(sql.due_tenants(layout))
        asks = fair_asks(list(cursor.fetchall()), critical, normal)
        if not asks:
            return []
        parts = [sql.claim_part(layout, n, p, True) for n, (p, _, _) in enumerate(asks)]
        params = [value for _, tenant, count in asks for value in (tenant, count)]
    cursor.execute(" UNION ALL ".join(parts), params)
    found = cursor.fetchall()
    if found and layout.tenant_counts:
        owners = sorted({row[1] for row in found})
        params = owners * 2 if layout.by_tenant else owners
        cursor.execute(sql.tenant_budgets(layout, len(owners)), params)
        cursor.fetchall()
    return [row[0] for row in found]


def results_of(claimed: list[tuple]) -> tuple[list[list], list[str]]:
    """About one job in 85 dies (last id byte 0, 100 or 200), the others succeed."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    rows, dead = [], []
    for job in claimed:
        died = int(job[0][-2:], 16) % 100 == 0
        status = "dead" if died else "succeeded"
        rows.append([job[0], job[4], status, None, now, 500 if died else 200, None, "ok", 7])
        if died:
            dead.append(job[0])
    return rows, dead


def exchange(cursor, layout: sql.Layout, results: list[list], dead: list[str]) -> list[tuple]:
    """One executor round in one transaction: the last round's results, then a claim."""
    cursor.execute("BEGIN")
    if results:
        cursor.execute(sql.record_results(layout), [json.dumps(results), WORKER])
        if dead and layout.dead_letters:
            cursor.execute(sql.record_dead(layout), [json.dumps(dead)])
    keys = candidates(cursor, layout)
    claimed = []
    if keys:
        margins = [LEASE_MARGIN] * (2 if sql.writes_wake(layout) else 1)
        cursor.execute(sql.mark_running(layout), [json.dumps(keys), WORKER, *margins])
        cursor.execute(sql.claimed_details(layout), [json.dumps(keys), WORKER])
        claimed = list(cursor.fetchall())
    cursor.execute("COMMIT")
    return claimed


def work_all(cursor, layout: sql.Layout, count: int) -> None:
    progress = Progress(f"{layout.key}: claim + result", count)
    results, dead, done = [], [], 0
    while True:
        claimed = exchange(cursor, layout, results, dead)
        done += len(results)
        progress.update(done)
        if not claimed and not results:
            break
        results, dead = results_of(claimed)
    progress.close()


def archive_all(cursor, layout: sql.Layout, count: int) -> int:
    progress = Progress(f"{layout.key}: archive", count)
    moved = 0
    for status in ("succeeded", "dead"):
        while True:
            rows = archivable(cursor, layout, status)
            if not rows:
                break
            cursor.execute("BEGIN")
            batch = [[row[0], row[5], row[6]] for row in rows]
            cursor.execute(sql.archive_delete(layout), [json.dumps(batch)])
            moved += cursor.rowcount
            if status == "dead" and layout.dead_letters:
                cursor.execute(sql.dead_letter_delete(layout), [json.dumps([r[0] for r in rows])])
            cursor.execute("COMMIT")
            progress.update(moved)
    progress.close()
    return moved


def archivable(cursor, layout: sql.Layout, status: str) -> list[tuple]:
    if not layout.by_tenant:
        cursor.execute(sql.archivable(layout), [status, BATCH["archive"]])
        return list(cursor.fetchall())
    cursor.execute(sql.due_tenants(layout, status))
    rows: list[tuple] = []
    for priority, tenant, _ in cursor.fetchall():
        left = BATCH["archive"] - len(rows)
        if left <= 0:
            break
        cursor.execute(sql.archivable_group(layout), [status, priority, tenant, left])
        rows += cursor.fetchall()
    return rows


def one_run(cursor, layout: sql.Layout, count: int, others: int, meter: CpuMeter) -> Run:
    due = datetime.now(UTC) - timedelta(seconds=1)
    rows = job_rows(layout, count, due, tenants(20, 1), spread=False)
    run = Run()
    wait_for_purge(cursor)  # the last run's (or a neighbour's) purge is not this run's cost
    meter.start()
    phases = [
        ("insert", lambda: insert_all(cursor, layout, rows, f"{layout.key}: insert")),
        ("claim+result", lambda: work_all(cursor, layout, count)),
        ("archive", lambda: archive_all(cursor, layout, count)),
    ]
    cpu_before = 0.0
    for name, phase in phases:
        started = time.perf_counter()
        phase()
        run.wall[name] = time.perf_counter() - started
        cpu_now = meter.stop()
        run.cpu[name], cpu_before = cpu_now - cpu_before, cpu_now
    wait_for_purge(cursor)  # a delete's purge is part of the row's life
    run.cpu["purge"] = meter.stop() - cpu_before
    cursor.execute(f"SELECT COUNT(*) FROM {layout.table}")
    assert cursor.fetchone()[0] == others, "the run left jobs behind"
    return run


def summary(runs: dict[str, list[Run]], count: int) -> str:
    """Per layout: CPU per job (min and max of the runs; the min against the first layout's),
    the best run's phases, and the client's best jobs/s."""
    rows, first = [], None
    for key, done in runs.items():
        layout = sql.LAYOUTS[key]
        per_job = sorted(sum(r.cpu.values()) * 1000 / count for r in done)
        walls = sorted(sum(r.wall.values()) for r in done)
        best = min(done, key=lambda r: sum(r.cpu.values()))
        phases = " / ".join(f"{v * 1000 / count:.3f}" for v in best.cpu.values())
        first = first or per_job[0]
        label = f"({key}) {layout.label}"
        ratio = per_job[0] / first
        rows.append([label, layout.trees, per_job[0], per_job[-1], ratio, phases, count / walls[0]])
    head = [
        "layout",
        "B-trees",
        "ms/job min",
        "max",
        "min / first",
        "insert/claim+res/archive/purge",
    ]
    head.append("jobs/s")
    return table(head, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=50_000)
    parser.add_argument("--others", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--layouts", default="abcef")
    parser.add_argument("--database", default=f"{server()[1]}_layouts")
    parser.add_argument("--checks", default="abce", help="layouts whose plans are checked")
    args = parser.parse_args()
    connection = connect(args.database, fresh=True)
    cursor = connection.cursor()
    meter = CpuMeter.mariadb()
    cursor.execute(
        "CREATE TABLE tenants_bench (id UUID PRIMARY KEY, concurrency_limit INT NOT NULL)"
    )
    cursor.executemany(
        "INSERT INTO tenants_bench VALUES (%s, 1000000)", [[t] for t in tenants(20, 1)]
    )
    for key in args.layouts:
        prepare(cursor, sql.LAYOUTS[key], args.others)
    runs: dict[str, list[Run]] = {key: [] for key in args.layouts}
    for n in range(args.runs):
        for key in args.layouts:
            runs[key].append(one_run(cursor, sql.LAYOUTS[key], args.jobs, args.others, meter))
            print(f"run {n + 1} ({key}): {sum(runs[key][-1].cpu.values()):.2f} s", file=sys.stderr)
    print(machine_line(cursor))
    print(
        f"row life: {args.jobs:,} jobs over {args.others:,} other rows, one client, "
        f"{args.runs} interleaved runs; MariaDB server CPU (shared server: minimum of runs)"
    )
    print(summary(runs, args.jobs))
    checked = [sql.LAYOUTS[key] for key in args.checks if key in args.layouts]
    if checked:
        due = datetime.now(UTC) - timedelta(seconds=1)
        rows = job_rows(checked[0], args.jobs, due, tenants(20, 1), spread=False)
        print(f"\nplans with {args.jobs:,} running jobs over the {args.others:,} others:")
        print(run_checks(cursor, checked, rows))


if __name__ == "__main__":
    main()
