"""Labels tick benchmark: the tick of 1,000 due unlabelled cron tasks with the insert that
copies labels (NULLIF(t.labels, '{}')) against the same insert without the labels column,
and, for scale, the tick of 1,000 tasks carrying three labels each; in one run, round robin.

    DATABASE_URL=mysql://root:@127.0.0.1:3306/scheduler python bench/labels_tick.py
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench.bootstrap  # noqa: E402,F401 - sets up Django before the imports below
from bench.common import machine_line, use_fresh_database  # noqa: E402
from bench.report import table  # noqa: E402
from bench.scheduler_tick import create_tasks, measure_round_robin, real_tick  # noqa: E402
from tasks import sql  # noqa: E402
from tasks.labels import JOB_LABELS_SQL  # noqa: E402
from tasks.models import Task, Tenant  # noqa: E402

WITH_LABELS = sql.DIALECTS["mysql"]
# The insert as it was before labels: no labels column, so the job's is NULL.
WITHOUT_LABELS = replace(
    WITH_LABELS,
    insert_jobs=WITH_LABELS.insert_jobs.replace(" labels,", "").replace(f" {JOB_LABELS_SQL},", ""),
)
LABELS = {"env": "prod", "team": "billing", "region": "eu-west-1"}


def tick_with(dialect: sql.TickDialect):
    def tick(now) -> int:
        sql.DIALECTS["mysql"] = dialect
        try:
            return real_tick(now)
        finally:
            sql.DIALECTS["mysql"] = WITH_LABELS

    return tick


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=30)
    parser.add_argument("--idle", type=int, default=20000, help="not-yet-due tasks")
    parser.add_argument("--reversed", action="store_true", help="run b before a in each tick")
    args = parser.parse_args()
    assert WITHOUT_LABELS.insert_jobs != WITH_LABELS.insert_jobs
    use_fresh_database("bench")
    tenant = Tenant.objects.create(name="bench")
    create_tasks(tenant, args.idle, due=False, start=1000)
    plain = create_tasks(tenant, 1000, due=True, start=0)
    variants = [
        ("a labels copied", tick_with(WITH_LABELS)),
        ("b no labels column", tick_with(WITHOUT_LABELS)),
    ]
    if args.reversed:  # the other order within each tick: a check on order bias
        variants.reverse()
    print(machine_line())
    measure_round_robin(variants, plain, 2)  # warm-up
    measured = measure_round_robin(variants, plain, args.ticks)
    Task.objects.filter(id__in=[t.id for t in plain]).update(labels=LABELS)
    labelled = measure_round_robin(
        [("c three labels each", tick_with(WITH_LABELS))], plain, args.ticks
    )
    measured.update(labelled)
    rows = [[label, m["median"], m["p95"], m["statements"]] for label, m in measured.items()]
    print(table(["variant", "median ms", "p95 ms", "statements"], rows))
    ratio = measured["a labels copied"]["median"] / measured["b no labels column"]["median"]
    print(f"unlabelled tasks, labels copied / no labels column: {ratio:.2f}x (median)")


if __name__ == "__main__":
    main()
