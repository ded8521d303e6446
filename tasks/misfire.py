"""The runs a late task's misfire policy drops (`skip`: every missed run, `run_once`: all
but the one it makes), recorded as one `misfire` entry of the skipped-run ledger."""

from __future__ import annotations

from datetime import datetime
from typing import TypeVar

from tasks import sql
from tasks.models import SkipReason
from tasks.run_counts import runs_in
from tasks.skip_ledger import Skip
from tasks.tick_limits import due_schedule
from tasks.timing import ONE_MICROSECOND, Schedule

Plan = TypeVar("Plan")  # tasks.tick.RunPlan (a NamedTuple with skips)


def with_dropped_runs(
    task: sql.DueTask, plan: Plan, now: datetime, timing: Schedule | None = None
) -> Plan:
    """`plan` with the runs from the task's due run up to its new next run (the made one
    excepted) as its skips. `timing`: the task's due_schedule, when the tick has it."""
    start = task.next_run_at if plan.scheduled_at is None else task.next_run_at + ONE_MICROSECOND
    end = plan.next_run_at or now + ONE_MICROSECOND  # no next run: every one until now
    span = runs_in(timing or due_schedule(task), start, end)
    if span is None:
        return plan
    skip = Skip(task.id, SkipReason.MISFIRE, span.first, span.last, span.count)
    return plan._replace(skips=(*plan.skips, skip))
