"""How the console writes ids and instants: short enough for a list, exact on hover."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from django.utils.html import format_html

SHORT_ID_LENGTH = 8


def utc_text(moment: datetime | None) -> str:
    """`2026-11-29 18:06:03 UTC`: seconds and the zone, whatever the browser's locale."""
    if moment is None:
        return "-"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def short_id(value: uuid.UUID | str) -> str:
    """The last characters of an id. Ids are UUIDv7: the first eight characters are the
    time (the same for every id made in the same minute), the last ones are random."""
    return uuid.UUID(str(value)).hex[-SHORT_ID_LENGTH:]


def short_id_html(value: uuid.UUID | str, url: str | None = None):
    """The short id in monospace, the full id on hover, a link when a url is given."""
    if url:
        return format_html(
            '<a href="{}" title="{}"><code>{}</code></a>', url, value, short_id(value)
        )
    return format_html('<code title="{}">{}</code>', value, short_id(value))


def clipped_html(text: str | None, length: int = 60):
    """A long text cut for a list cell, whole on hover."""
    if not text:
        return "-"
    if len(text) <= length:
        return text
    return format_html('<span title="{}">{}…</span>', text, text[: length - 1])
