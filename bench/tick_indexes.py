"""The tick of 1,000 due tasks on `tasks` with all its B-trees against `tasks` with only the
primary key and `tasks_tick_idx`, round-robin in one run: does any B-tree besides the
tick's own cost the tick anything?

Both layouts are copies (CREATE TABLE ... LIKE, rows copied) of the migrated tables in
databases of their own, `<name>_all` and `<name>_lean`; each tick switches with `USE`.

    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/tick_indexes.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from django.db import connection  # noqa: E402

import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.scheduler_tick import create_tasks, real_tick, reset  # noqa: E402
from tasks.models import Tenant  # noqa: E402

# Every B-tree of `tasks` the tick's plain step never changes (none holds next_run_at).
NOT_THE_TICKS = (
    "tasks_tenant_idempotency_key_uniq",
    "tasks_tenant_list_idx",
    "tasks_tenant_quota_idx",
    "tasks_changed_idx",
    "tasks_tenant_name_idx",
)


def copy_database(source: str, target: str, drop: tuple[str, ...]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS `{target}`")
        cursor.execute(f"CREATE DATABASE `{target}` CHARACTER SET utf8mb4")
        cursor.execute(f"SHOW FULL TABLES FROM `{source}` WHERE Table_type = 'BASE TABLE'")
        for table, _kind in cursor.fetchall():
            cursor.execute(f"CREATE TABLE `{target}`.`{table}` LIKE `{source}`.`{table}`")
            cursor.execute(f"INSERT INTO `{target}`.`{table}` SELECT * FROM `{source}`.`{table}`")
        for index in drop:
            cursor.execute(f"ALTER TABLE `{target}`.tasks DROP INDEX {index}")


def measure(names: list[str], tasks, ticks: int) -> dict[str, list[float]]:
    durations = {name: [] for name in names}
    for n in range(ticks):
        base = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=37 * n)
        for name in names if n % 2 else names[::-1]:  # each goes first every other tick
            with connection.cursor() as cursor:
                cursor.execute(f"USE `{name}`")
            reset(tasks, base)
            started = time.perf_counter()
            assert real_tick(base + timedelta(seconds=1)) == len(tasks)
            durations[name].append((time.perf_counter() - started) * 1000)
    return durations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=30)
    parser.add_argument("--idle", type=int, default=20000, help="not-yet-due tasks")
    args = parser.parse_args()
    source = use_fresh_database("indexes")
    tenant = Tenant.objects.create(name="bench")
    create_tasks(tenant, args.idle, due=False, start=1000)
    tasks = create_tasks(tenant, 1000, due=True, start=0)
    names = [f"{source}_all", f"{source}_lean"]
    copy_database(source, names[0], ())
    copy_database(source, names[1], NOT_THE_TICKS)
    print(machine_line())
    print(f"1000 due cron tasks, {args.idle} idle tasks, {args.ticks} ticks each, alternated")
    measure(names, tasks, 2)  # warm-up
    durations = measure(names, tasks, args.ticks)
    medians = [statistics.median(durations[name]) for name in names]
    print(f"tasks with 7 B-trees:            median {medians[0]:.1f} ms")
    print(f"tasks with 2 (PRIMARY, tick_idx): median {medians[1]:.1f} ms")
    print(f"ratio all/lean: {medians[0] / medians[1]:.2f}")


if __name__ == "__main__":
    main()
