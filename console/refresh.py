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
    if not asked.isdigit():
        return None
    return min(max(int(asked), SHORTEST), LONGEST)
