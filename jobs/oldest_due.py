"""How long the oldest due job of each priority has waited for an executor (Sidekiq's
"latency"): the figure that says the executors are behind before any call is late.

Read through the wake index's loose scan (jobs/wake_index.py): one jump per (priority,
tenant) group of pending rows due by now, however many rows each group holds.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone

from jobs.models import JobStatus
from jobs.wake_index import due_groups
from scheduler_site.sqltools import datetime_param


def oldest_due_ages(now: datetime | None = None, cursor=None) -> dict[int, float]:
    """Seconds since the oldest due pending job of each priority became due; a priority
    with nothing due is absent."""
    now = now or timezone.now()
    if cursor is None:
        with connection.cursor() as own:
            return oldest_due_ages(now, own)
    groups = due_groups(cursor, JobStatus.PENDING, ("%s", [datetime_param(now)]))
    ages: dict[int, float] = {}
    for group in groups:  # oldest first: the first of each priority is its oldest
        ages.setdefault(group.priority, max(0.0, (now - group.oldest).total_seconds()))
    return ages
