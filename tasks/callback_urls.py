"""A task's callback URLs (on_success_url, on_failure_url): optional, and held to the same
destination policy as its `url`, so a callback can reach nothing a run could not."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tasks import rules
from tasks.address_policy import Resolver

CALLBACK_FIELDS = ("on_success_url", "on_failure_url")


def check_callback_urls(values: dict, resolve: Resolver) -> None:
    """Refuse a callback URL the executor must never call, with a 400 naming its field."""
    for field in CALLBACK_FIELDS:
        url = values.get(field)
        if url is not None:
            rules.check_url(url, resolve, field=field)


def urls_of(data: dict) -> Iterator[object]:
    """Every URL a task's fields name: its own and its callbacks' (a batch looks them all
    up at once)."""
    yield data.get("url")
    for field in CALLBACK_FIELDS:
        yield data.get(field)


def all_urls(items: Iterable[dict]) -> Iterator[object]:
    for data in items:
        yield from urls_of(data)
