"""The ledger's `dst_gap` reason: a run made at a spring-forward gap's end that stands for
several wall-clock times (Madrid `15,45 2 * * *`: 02:15 and 02:45 are one run at 03:00)
records the others as skipped, at the gap end, since they have no instant of their own."""

from __future__ import annotations

from typing import TypeVar

from tasks import schedule, sql
from tasks.models import SkipReason
from tasks.skip_ledger import Skip
from tasks.tick_limits import due_schedule
from tasks.timing import Schedule

Plan = TypeVar("Plan")  # tasks.tick.RunPlan (a NamedTuple with skips)


def with_dst_gap(task: sql.DueTask, plan: Plan, timing: Schedule | None = None) -> Plan:
    """The run due now, whether made or skipped for overlap (one skip for the run, the
    other wall times it stood for as dst_gap). `timing`: the task's due_schedule, when the
    tick has it already."""
    if not task.cron or task.timezone == "UTC":  # no gap: the cheap tests first
        return plan
    due = plan.scheduled_at
    if due is None and any(skip.reason == SkipReason.OVERLAP for skip in plan.skips):
        due = task.next_run_at
    if due is None:
        return plan
    cron = (timing or due_schedule(task)).cron
    collapsed = schedule.collapsed_into(cron, task.timezone, due)
    if collapsed < 2:
        return plan
    skip = Skip(task.id, SkipReason.DST_GAP, due, due, collapsed - 1)
    return plan._replace(skips=(*plan.skips, skip))
