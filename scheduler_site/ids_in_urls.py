"""Ids taken from a URL: anything that is not a UUID names nothing, so it is a 404."""

import uuid

from scheduler_site.errors import NotFound


def parse_id(raw: str, what: str) -> uuid.UUID:
    try:
        return uuid.UUID(raw)
    except ValueError as exc:
        raise NotFound(f"{what} not found") from exc
