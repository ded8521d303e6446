"""The API's URL routes as the resolver holds them, for tests that walk every route."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver


def api_patterns() -> list[tuple[str, URLPattern]]:
    """(route text, pattern) of every URL pattern under /v1/, e.g. `v1/tasks/<str:task_id>`."""
    found: list[tuple[str, URLPattern]] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            text = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, text)
            elif isinstance(pattern, URLPattern) and text.startswith("v1/"):
                found.append((text, pattern))

    walk(get_resolver().url_patterns, "")
    return found


def view_class(pattern: URLPattern):
    return getattr(pattern.callback, "view_class", None)
