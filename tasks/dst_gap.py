"""The ledger's `dst_gap` reason: a run made at a spring-forward gap's end that stands for
several wall-clock times (Madrid `15,45 2 * * *`: 02:15 and 02:45 are one run at 03:00)
records the others as skipped, at the gap end, since they have no instant of their own."""

from __future__ import annotations

from typing import TypeVar

from tasks import schedule, sql
from tasks.models import SkipReason
from tasks.skip_ledger import Skip
from tasks.tick_limits import due_schedule

Plan = TypeVar("Plan")  # tasks.tick.RunPlan (a NamedTuple with skips)


def with_dst_gap(task: sql.DueTask, plan: Plan) -> Plan:
    made = plan.scheduled_at
    if made is None or not task.cron or task.timezone == "UTC":
        return plan
    collapsed = schedule.collapsed_into(due_schedule(task).cron, task.timezone, made)
    if collapsed < 2:
        return plan
    skip = Skip(task.id, SkipReason.DST_GAP, made, made, collapsed - 1)
    return plan._replace(skips=(*plan.skips, skip))
