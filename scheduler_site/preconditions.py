"""Optimistic concurrency over HTTP: `ETag: "<version>"` out, `If-Match` in."""

from rest_framework.request import Request
from rest_framework.response import Response

from scheduler_site.errors import PreconditionFailed, PreconditionRequired

ANY_VERSION = None
# More digits than a version ever has: a longer tag matches nothing and is never parsed.
MAX_VERSION_DIGITS = 19


def expected_version(request: Request, what: str = "task") -> int | None:
    """The version named by If-Match; None for `*`. Missing is 428, unreadable is 412."""
    raw = request.headers.get("If-Match")
    if raw is None or not raw.strip():
        raise PreconditionRequired(f'If-Match is required: send the ETag of the {what}, e.g. "3"')
    tag = raw.strip()
    if tag == "*":
        return ANY_VERSION
    if tag.startswith("W/"):
        tag = tag[2:]
    tag = tag.strip('"')
    if not (tag.isascii() and tag.isdigit()) or len(tag) > MAX_VERSION_DIGITS:
        raise PreconditionFailed(f"If-Match {raw!r} does not match the {what}'s version")
    return int(tag)


def optional_expected_version(request: Request, what: str) -> int | None:
    """As expected_version where If-Match is honoured when sent, not required (a blank one
    is as good as none)."""
    sent = (request.headers.get("If-Match") or "").strip()
    return expected_version(request, what) if sent else ANY_VERSION


def with_etag(response: Response, version: int) -> Response:
    response["ETag"] = f'"{version}"'
    return response
