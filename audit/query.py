"""The filters of GET /v1/audit, read from the query string: each bad one a 400 naming it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from audit.models import AuditEntry
from scheduler_site.errors import ValidationFailed

ACTION = re.compile(r"[a-z_]{1,30}\.[a-z_]{1,30}")
TARGET_LENGTH = AuditEntry._meta.get_field("target").max_length
# A query string turns the `+` of an offset into a space unless it was sent as %2B.
SPACED_OFFSET = re.compile(r" (\d{2}(:?\d{2})?)$")


@dataclass(frozen=True)
class AuditFilter:
    target: str | None = None
    action: str | None = None
    since: datetime | None = None  # included
    until: datetime | None = None  # excluded


def audit_filter(params) -> AuditFilter:
    """The filters as asked; `since` must come before `until`."""
    found = AuditFilter(
        target=_target(params.get("target")),
        action=_action(params.get("action")),
        since=instant(params.get("since"), "since"),
        until=instant(params.get("until"), "until"),
    )
    if found.since and found.until and found.since >= found.until:
        raise _bad("until", "must be later than since")
    return found


def _target(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw or len(raw) > TARGET_LENGTH:
        raise _bad("target", f"an id or a name of 1 to {TARGET_LENGTH} characters")
    return raw


def _action(raw: str | None) -> str | None:
    if raw is not None and not ACTION.fullmatch(raw):
        raise _bad("action", "an action such as task.update (see the README's list)")
    return raw


def instant(raw: str | None, name: str) -> datetime | None:
    """An ISO 8601 instant with its offset (`Z` or `+01:00`), in UTC."""
    if raw is None:
        return None
    try:
        moment = datetime.fromisoformat(SPACED_OFFSET.sub(r"+\1", raw))
        if moment.tzinfo is None:
            raise _bad(name, "must include a UTC offset, for example 2030-01-01T09:00:00Z")
        moment = moment.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise _bad(name, "an ISO 8601 instant with its offset, e.g. 2030-01-01T09:00:00Z") from exc
    if not 1000 <= moment.year <= 9999:  # what MariaDB's DATETIME holds
        raise _bad(name, "a year from 1000 to 9999")
    return moment


def _bad(name: str, message: str) -> ValidationFailed:
    return ValidationFailed(f"{name} is not valid", fields={name: message})
