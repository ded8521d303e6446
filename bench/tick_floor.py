"""The tick's floor and its growth, measured round-robin beside the real tick.

The floor is the least any tick of these tasks can write: one multi-row `INSERT ... VALUES`
of the same job rows (every column the tick's insert fills) and a `COMMIT`; no read, no
lock, no advance. Its text is rendered beforehand: the driver's quoting of 11,000 values
one by one costs about as much as the server's insert, and no tick needs it (the real one
sends its rows as one JSON parameter). The growth variant ticks ten times as many
due tasks in one call, so `tick 10000/1000` shows whether the cost per task stays flat.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection, transaction

from scheduler_site.ids import new_id
from scheduler_site.sqltools import datetime_param, uuid_param
from tasks import schedule
from tasks.models import Task
from tasks.tick import run_tick

PARKED = datetime(2099, 1, 1, tzinfo=UTC)  # far beyond every tick's instant
JOB_COLUMNS = (
    "id, tenant_id, task_id, scheduled_at, priority, status, attempt, max_attempts,"
    " next_attempt_at, timeout_seconds, backoff_base_seconds, labels, created_at, updated_at"
)
ROW = "(%s,%s,%s,%s,%s,'pending',0,%s,%s,%s,%s,NULL,%s,%s)"


def floor_tick_factory(tasks: list[Task]):
    """The floor: the job rows of the due tasks, written in one INSERT and committed."""

    def tick(now: datetime) -> int:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(prepared[now])
        return len(tasks)

    statement = f"INSERT INTO jobs ({JOB_COLUMNS}) VALUES " + ",".join([ROW] * len(tasks))
    prepared: dict = {}

    def prepare(now: datetime, base: datetime) -> None:
        at, stamp = datetime_param(base), datetime_param(now)
        params = []
        for t in tasks:
            params += [uuid_param(new_id()), uuid_param(t.tenant_id), uuid_param(t.id), at]
            params += [t.priority, t.max_attempts, at, t.timeout_seconds]
            params += [t.backoff_base_seconds, stamp, stamp]
        connection.ensure_connection()
        with connection.connection.cursor() as raw:
            prepared[now] = raw.mogrify(statement, params)

    return tick, prepare


class Grown:
    """The real tick over `extra` more due tasks than the measured ones, in one call: the
    extra tasks are due only while this variant runs (parked far ahead otherwise)."""

    def __init__(self, measured: list[Task], extra: list[Task]) -> None:
        self.measured, self.extra = measured, extra
        self.due = len(measured) + len(extra)
        self.label = f"g tick of {self.due:,}"

    def _move(self, when: datetime) -> None:
        Task.objects.filter(id__in=[t.id for t in self.extra]).update(
            status="active", next_run_at=when
        )

    def before(self, base: datetime) -> None:
        self._move(base)

    def __call__(self, now: datetime) -> int:
        schedule.next_run_after.cache_clear()
        return run_tick(now=now, batch_size=self.due).selected

    def after(self) -> None:
        """Park the extra tasks again (outside the timed part; the next reset empties the
        queue)."""
        self._move(PARKED)
