"""Applying one of the API's use cases to each selected row, as the admin's actions do."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.contrib import admin, messages
from django.http import HttpRequest

from scheduler_site.errors import ApplicationError

Step = tuple[str, Callable[[], object]]  # a row's label, and the use case call for it


def apply_each(
    model_admin: admin.ModelAdmin, request: HttpRequest, steps: Iterable[Step], done: str
) -> int:
    """Run every step; a refusal (the use case's own error) is reported, not a crash."""
    changed = 0
    for label, call in steps:
        try:
            call()
            changed += 1
        except ApplicationError as exc:
            model_admin.message_user(request, f"{label}: {exc.message}", messages.WARNING)
    model_admin.message_user(request, f"{changed} {done}.", messages.SUCCESS)
    return changed
