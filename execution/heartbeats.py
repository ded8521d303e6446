"""Heartbeats in the database: one row per running process, written at most every few
seconds whatever the turn rate, so a busy loop costs one small upsert per interval.

The time is the database's own: the reconciler compares an executor's beat with the
database's clock (jobs/queue/dead_holders.py), whatever the clocks of the machines."""

from __future__ import annotations

import time
from datetime import timedelta

from django.db import connection
from django.db.models.functions import Now
from django.utils import timezone

from execution.models import ProcessHeartbeat

BEAT_EVERY_SECONDS = 5.0
# Each restart is a new instance (a new pid): rows of instances long gone are dropped.
FORGET_AFTER = timedelta(days=7)

_last_beat: dict[tuple[str, str], float] = {}


def beat(name: str, instance_id: str) -> None:
    """Record a good turn of this process, unless one was recorded in the last few seconds."""
    key = (name, instance_id)
    now = time.monotonic()
    previous = _last_beat.get(key)
    if previous is not None and now - previous < BEAT_EVERY_SECONDS:
        return
    if previous is None:
        ProcessHeartbeat.objects.filter(last_seen__lt=timezone.now() - FORGET_AFTER).delete()
    _upsert(name, instance_id)
    _last_beat[key] = now


def write_beat(name: str, instance_id: str) -> None:
    """Record that this process is alive now, at once."""
    _upsert(name, instance_id)


def _upsert(name: str, instance_id: str) -> None:
    # MySQL's ON DUPLICATE KEY takes no conflict target; SQLite's ON CONFLICT needs one.
    target = {}
    if connection.features.supports_update_conflicts_with_target:
        target["unique_fields"] = ["name", "instance_id"]
    row = ProcessHeartbeat(name=name, instance_id=instance_id, last_seen=Now())
    ProcessHeartbeat.objects.bulk_create(
        [row], update_conflicts=True, update_fields=["last_seen"], **target
    )


def forget_beats() -> None:
    """Write at the next beat of every process (after a test empties the table)."""
    _last_beat.clear()
