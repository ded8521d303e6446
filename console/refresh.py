"""The dashboard's auto-refresh: on while the URL says `?refresh=<seconds>`, so a reload, a
bookmark or a link keeps it; the page then reloads itself (a meta refresh: no script).
Anything else in the parameter leaves it off rather than failing the page."""

from __future__ import annotations

from django.http import HttpRequest

DEFAULT_SECONDS = 10
SHORTEST, LONGEST = 2, 3600


def refresh_seconds(request: HttpRequest) -> int | None:
    """The reload period the URL asks for, within bounds; None: no auto-refresh."""
    asked = request.GET.get("refresh", "")
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses (a 500).
    if not (asked.isascii() and asked.isdigit()):
        return None
    asked = asked.lstrip("0") or "0"
    # Past LONGEST's length it is past LONGEST: int() of thousands of digits would raise.
    if len(asked) > len(str(LONGEST)):
        return LONGEST
    return min(max(int(asked), SHORTEST), LONGEST)
