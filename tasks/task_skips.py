"""The ledger entry of one task's skipped runs, written from a path holding the task's row
(a resume): the entry is written by tasks/skip_ledger.py and the task's total and open
entry are set on the row, which the caller saves in the same transaction."""

from __future__ import annotations

from datetime import datetime

from django.db import connection

from scheduler_site.sqltools import uuid_from_db, uuid_param
from tasks.models import Task
from tasks.run_counts import RunSpan
from tasks.skip_ledger import OpenEntry, Skip, record_skips

LEDGER_FIELDS = ["skipped_runs", "open_skip_id", "open_skip_reason"]


def record_task_skip(task: Task, reason: str, span: RunSpan | None, now: datetime) -> list[str]:
    """Record `span` (None: nothing skipped) for `task`; returns the fields to save."""
    if span is None:
        return []
    task_id = uuid_param(task.id)
    before = task.open_skip_id and uuid_param(task.open_skip_id)
    skip = Skip(task_id, reason, span.first, span.last, span.count)
    with connection.cursor() as cursor:
        entries = record_skips(
            cursor, [skip], {task_id: OpenEntry(before, task.open_skip_reason)}, now
        )
    task.open_skip_id = uuid_from_db(entries[task_id].entry_id)
    task.open_skip_reason = reason
    task.skipped_runs += span.count
    return LEDGER_FIELDS
