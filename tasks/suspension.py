"""A stopped tenant's active tasks leave the tick's range (`suspended`) and come back when
it resumes, each by its misfire policy: `skip` and `run_once` as the tick applies them to
any late task, `run_all` replaying at most SCHEDULER_RESUME_MAX_REPLAYED_RUNS missed runs.

Both are set-based: one UPDATE to suspend, and on resume one read and one UPDATE per batch
of RESUME_BATCH tasks."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction

from scheduler_site.sqltools import datetime_param, uuid_param
from tasks import sql
from tasks.models import MisfirePolicy, Task, TaskStatus
from tasks.replay_cap import replay_start
from tasks.timing import schedule_of

RESUME_BATCH = 500


def tasks_suspend_for_tenant(*, tenant_id: uuid.UUID) -> int:
    """Returns how many tasks left the tick's range."""
    return Task.objects.filter(tenant_id=tenant_id, status=TaskStatus.ACTIVE).update(
        status=TaskStatus.SUSPENDED
    )


def tasks_resume_for_tenant(*, tenant_id: uuid.UUID, now: datetime) -> int:
    """Returns how many tasks are active again."""
    resumed, after = 0, None
    while True:
        with transaction.atomic():
            batch = _next_suspended(tenant_id, after)
            if not batch:
                return resumed
            rows = [
                sql.Advance(_db_id(task), _resumed_next_run(task, now), TaskStatus.ACTIVE)
                for task in batch
            ]
            with connection.cursor() as cursor:
                sql.advance_tasks(cursor, rows)
        resumed += len(batch)
        after = batch[-1].id


def _next_suspended(tenant_id: uuid.UUID, after: uuid.UUID | None) -> list[Task]:
    query = Task.objects.select_for_update().filter(
        tenant_id=tenant_id, status=TaskStatus.SUSPENDED
    )
    if after is not None:
        query = query.filter(id__gt=after)
    fields = (
        *("id", "cron", "timezone", "next_run_at", "misfire_policy", "interval_seconds"),
        *("starts_at", "ends_at", "created_at"),
    )
    return list(query.order_by("id").only(*fields)[:RESUME_BATCH])


def _resumed_next_run(task: Task, now: datetime) -> str | None:
    next_run = task.next_run_at
    if not task.is_one_off and task.misfire_policy == MisfirePolicy.RUN_ALL and next_run:
        cap = settings.SCHEDULER_RESUME_MAX_REPLAYED_RUNS
        next_run = replay_start(schedule_of(task), next_run, now, cap)
    return datetime_param(next_run) if next_run else None


def _db_id(task: Task) -> str:
    return uuid_param(task.id)
