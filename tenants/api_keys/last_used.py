"""A key's `last_used_at`, written at most once a minute per key: a busy integration's
every request must not become a write to the keys table."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from tenants.models import ApiKey

PRECISION = timedelta(minutes=1)


def note_use(key: ApiKey, now: datetime) -> None:
    if key.last_used_at is not None and now - key.last_used_at < PRECISION:
        return
    # Guarded: of the requests that all read an old time at once, one writes.
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - PRECISION)
    ApiKey.objects.filter(stale, id=key.id).update(last_used_at=now)
    key.last_used_at = now
