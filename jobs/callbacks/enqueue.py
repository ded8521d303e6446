"""Putting callbacks in the queue: a job row in the callback lane and its target."""

from __future__ import annotations

import json
import operator
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.utils import timezone

from jobs.callbacks.enqueue_sql import STATEMENTS
from scheduler_site.ids import new_id
from scheduler_site.sqltools import datetime_param


@dataclass(slots=True)
class NewCallback:
    tenant_id: uuid.UUID
    task_id: uuid.UUID  # of the job reported on
    origin_job_id: uuid.UUID
    event: str
    url: str
    body: str
    due_at: datetime
    # Given by a maker that must know the id before the insert (the alert's pace row).
    job_id: uuid.UUID | None = None


def enqueue(callbacks: list[NewCallback]) -> list[uuid.UUID]:
    """Insert the callbacks' jobs and targets (inside the caller's transaction); their ids.

    The job's id is the callback's `webhook-id` on every try; its task id is its own id, so
    the run key (task, scheduled_at) never meets a run's and no task reader finds it."""
    if not callbacks:
        return []
    ids = [callback.job_id or new_id() for callback in callbacks]
    # The column's spelling, looked up once: per value it cost more than the insert's SQL.
    spell = str if connection.features.has_native_uuid_field else operator.attrgetter("hex")
    rows = json.dumps(
        [_row(job_id, callback, spell) for job_id, callback in zip(ids, callbacks, strict=True)]
    )
    stamp = datetime_param(timezone.now())
    tries = [
        settings.CALLBACK_MAX_ATTEMPTS,
        settings.CALLBACK_TIMEOUT_SECONDS,
        settings.CALLBACK_BACKOFF_SECONDS,
    ]
    insert_jobs, insert_targets = STATEMENTS[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(insert_jobs, [*tries, stamp, stamp, rows])
        cursor.execute(insert_targets, [stamp, rows])
    return ids


def _row(job_id: uuid.UUID, callback: NewCallback, spell: Callable[[uuid.UUID], str]) -> list:
    return [
        spell(job_id),
        spell(callback.tenant_id),
        datetime_param(callback.due_at),
        spell(callback.task_id),
        spell(callback.origin_job_id),
        callback.event,
        callback.url,
        callback.body,
    ]
