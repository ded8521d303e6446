"""A stopped tenant's active tasks leave the tick's range (`suspended`) and come back when
it resumes, each by its misfire policy: `skip` and `run_once` as the tick applies them to
any late task, `run_all` replaying at most SCHEDULER_RESUME_MAX_REPLAYED_RUNS missed runs.

Both are set-based: one UPDATE to suspend, and on resume one read and one UPDATE per batch
of RESUME_BATCH tasks."""

from __future__ import annotations

import uuid
from datetime import datetime

from django.db import connection, transaction

from scheduler_site.sqltools import datetime_param, uuid_param
from tasks import sql
from tasks.models import Task, TaskStatus
from tasks.skip_ledger import OpenEntry, record_skips
from tasks.stopped_runs import resumed_run
from tasks.tenant_cache import active_by_row

RESUME_BATCH = 500
# What resumed_run and the ledger read (tasks/timing.py schedule_of among them).
RESUME_FIELDS = (
    "id", "cron", "timezone", "next_run_at", "misfire_policy", "interval_seconds",
    "starts_at", "ends_at", "created_at", "open_skip_id", "open_skip_reason",
)  # fmt: skip


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
            # A stop made between two batches ends the resume: the stop suspended what was
            # active then, and the batches left must stay suspended with it. The tenant's
            # row first, under a shared lock, as a stop takes it before the tasks.
            if not active_by_row(tenant_id):
                return resumed
            batch = _next_suspended(tenant_id, after)
            if not batch:
                return resumed
            with connection.cursor() as cursor:
                sql.advance_tasks(cursor, _resume_rows(cursor, batch, now))
        resumed += len(batch)
        after = batch[-1].id


def _next_suspended(tenant_id: uuid.UUID, after: uuid.UUID | None) -> list[Task]:
    query = Task.objects.select_for_update().filter(
        tenant_id=tenant_id, status=TaskStatus.SUSPENDED
    )
    if after is not None:
        query = query.filter(id__gt=after)
    return list(query.order_by("id").only(*RESUME_FIELDS)[:RESUME_BATCH])


def _resume_rows(cursor, batch: list[Task], now: datetime) -> list[sql.Advance]:
    """Each task's row, after the ledger took the runs the stop cost (one write a batch)."""
    resumed = {_db_id(task): resumed_run(task, now) for task in batch}
    before = {_db_id(task): _open_entry(task) for task in batch}
    skips = [skip for _, skip in resumed.values() if skip is not None]
    entries = record_skips(cursor, skips, before, now) if skips else {}
    rows = []
    for task_id, (next_run, skip) in resumed.items():
        next_param = datetime_param(next_run) if next_run else None
        entry = entries.get(task_id) or before[task_id]
        skipped = skip.count if skip else 0
        status = TaskStatus.ACTIVE if next_run else TaskStatus.COMPLETED  # its window ended
        rows.append(sql.Advance(task_id, next_param, status, 0, skipped, *entry))
    return rows


def _open_entry(task: Task) -> OpenEntry:
    entry_id = task.open_skip_id and uuid_param(task.open_skip_id)
    return OpenEntry(entry_id, task.open_skip_reason)


def _db_id(task: Task) -> str:
    return uuid_param(task.id)
