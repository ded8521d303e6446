"""A key made with a key lives no longer than the key that made it.

A key handed out for a day (to a contractor, a CI run) could otherwise mint one that never
expires and outlive the limit its holder was given; a JWT or an unexpiring key may make any.
"""

from __future__ import annotations

from datetime import datetime

from scheduler_site.errors import ValidationFailed
from tenants.models import ApiKey


def checked_lifetime(expires_at: datetime | None, creator: object) -> datetime | None:
    """`expires_at` for a key made by `creator` (request.auth): the creator's own expiry
    when none is asked for, a 400 naming the field when later than it."""
    limit = creator.expires_at if isinstance(creator, ApiKey) else None
    if limit is None:
        return expires_at
    if expires_at is None:
        return limit
    if expires_at > limit:
        message = f"a key made with an API key may not outlive it ({limit.isoformat()})"
        raise ValidationFailed(f"expires_at: {message}", fields={"expires_at": message})
    return expires_at
