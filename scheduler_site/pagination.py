"""Cursor pagination shared by every list: `results` plus a `next` link (or null)."""

import base64
import json

from rest_framework.request import Request
from rest_framework.response import Response

from scheduler_site.errors import ValidationFailed

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


def encode_cursor(position: dict) -> str:
    raw = json.dumps(position, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


MAX_CURSOR_LENGTH = 512


def decode_cursor(request: Request) -> dict[str, str] | None:
    """The position a `next` link carries: a flat object of strings, or a 400."""
    raw = request.query_params.get("cursor")
    if not raw:
        return None
    if len(raw) > MAX_CURSOR_LENGTH:
        raise bad_cursor()
    try:
        padded = raw + "=" * (-len(raw) % 4)
        position = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (ValueError, TypeError, RecursionError) as exc:
        raise bad_cursor() from exc
    if not isinstance(position, dict) or not all(isinstance(v, str) for v in position.values()):
        raise bad_cursor()
    return position


def bad_cursor() -> ValidationFailed:
    return ValidationFailed("cursor is not valid", fields={"cursor": "not a valid cursor"})


def page_limit(request: Request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_LIMIT:
        raise ValidationFailed(
            "limit is not valid", fields={"limit": f"must be an integer from 1 to {MAX_LIMIT}"}
        )
    return int(raw)


def page_response(request: Request, results: list, next_position: dict | None) -> Response:
    next_url = None
    if next_position is not None:
        query = request.query_params.copy()
        query["cursor"] = encode_cursor(next_position)
        next_url = request.build_absolute_uri(f"{request.path}?{query.urlencode()}")
    return Response({"results": results, "next": next_url})
