"""The range of a backfill, [start, end), and the task's scheduled instants inside it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import islice

from django.conf import settings

from history.cassandra_schema import TTL_SECONDS
from scheduler_site.errors import ValidationFailed
from tasks.models import Task
from tasks.timing import schedule_of

MAX_INSTANTS = 1000


@dataclass(frozen=True)
class BackfillRange:
    start: datetime
    end: datetime


def checked_range(start: datetime, end: datetime, now: datetime) -> BackfillRange:
    """The range as asked for, or 400 naming the field: not empty, not reversed, inside
    the history's retention, and in the past (runs from now on are the schedule's own: made
    by the tick and counted toward max_runs)."""
    if start >= end:
        raise ValidationFailed(
            "the backfill range is empty or reversed", fields={"end": "must be after start"}
        )
    days = history_days()
    if start < now - timedelta(days=days):
        raise ValidationFailed(
            f"a backfill reaches back at most {days} days, as far as the history keeps runs",
            fields={"start": f"must not be more than {days} days ago"},
        )
    if end > now:
        raise ValidationFailed(
            "a backfill covers the past; the runs from now on are the schedule's",
            fields={"end": "must not be later than now"},
        )
    return BackfillRange(start.astimezone(UTC), end.astimezone(UTC))


def history_days() -> int:
    """How far back every run made is still known (a run is archived after its instant,
    then kept this long): before that, a run made once could not be told from none."""
    return min(settings.HISTORY_RETENTION_DAYS, TTL_SECONDS // 86400)


def scheduled_instants(task: Task, window: BackfillRange) -> list[datetime]:
    """The task's instants in the range, oldest first; 400 naming the limit when there are
    more than MAX_INSTANTS (one past it is all that is walked to know)."""
    runs = schedule_of(task).runs_between(window.start, window.end)
    instants = list(islice(runs, MAX_INSTANTS + 1))
    if len(instants) > MAX_INSTANTS:
        raise ValidationFailed(
            f"a backfill makes at most {MAX_INSTANTS} runs; split the range",
            fields={"end": f"the range holds more than {MAX_INSTANTS} scheduled instants"},
            code="too_many_instants",
        )
    return instants
