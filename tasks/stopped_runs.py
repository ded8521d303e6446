"""Where a task of a resumed tenant starts again, and the runs its tenant's stop cost it:
those are recorded as one `tenant_stopped` entry of the skipped-run ledger here, so the
tick, finding the task on time, records none of them again as a misfire.

- `skip`: every run missed beyond the misfire grace; the task goes on at its next run.
- `run_once`: every missed run but the latest, which the tick makes.
- `run_all`: the runs beyond SCHEDULER_RESUME_MAX_REPLAYED_RUNS (tasks/replay_cap.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from scheduler_site.sqltools import uuid_param
from tasks.models import MisfirePolicy, SkipReason, Task
from tasks.replay_cap import replay_start
from tasks.run_counts import RunSpan, runs_in
from tasks.skip_ledger import Skip
from tasks.timing import ONE_MICROSECOND, schedule_of


def resumed_run(task: Task, now: datetime) -> tuple[datetime | None, Skip | None]:
    """The task's next_run_at once its tenant is resumed, and the runs it will not make."""
    due = task.next_run_at
    if task.is_one_off or due is None or due >= now:
        return due, None
    plan = schedule_of(task)
    policy = task.misfire_policy
    if policy == MisfirePolicy.SKIP:
        if due >= now - timedelta(seconds=settings.SCHEDULER_MISFIRE_GRACE_SECONDS):
            return due, None
        following = plan.next_after(now)
        return following, _skip(task, runs_in(plan, due, following or now + ONE_MICROSECOND))
    if policy == MisfirePolicy.RUN_ONCE:
        missed = runs_in(plan, due, now + ONE_MICROSECOND)
        if missed is None or missed.count == 1:
            return due, None
        return missed.last, _skip(task, runs_in(plan, due, missed.last))
    # The cap counts back from the last run the window had, not from now past its end.
    last = min(now, plan.ends_at - ONE_MICROSECOND) if plan.ends_at else now
    start = replay_start(plan, due, last, settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS)
    return start, _skip(task, runs_in(plan, due, start))


def _skip(task: Task, span: RunSpan | None) -> Skip | None:
    if span is None:
        return None
    return Skip(uuid_param(task.id), SkipReason.TENANT_STOPPED, span.first, span.last, span.count)
