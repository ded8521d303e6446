"""Applying one of the API's use cases to each selected row, as the admin's actions do."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from django.contrib import admin, messages
from django.db.models import Model
from django.http import HttpRequest

from scheduler_site.errors import ApplicationError


class Step(NamedTuple):
    target: Model  # the row the use case acts on, named in the admin's log
    label: str
    call: Callable[[], object]


def apply_each(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    steps: Iterable[Step],
    done: str,
    logged: str,
) -> int:
    """Run every step; a refusal (the use case's own error) is reported, not a crash.
    Each step done leaves `logged` in the admin's log, naming the user and the row."""
    changed = 0
    for step in steps:
        try:
            step.call()
        except ApplicationError as exc:
            model_admin.message_user(request, f"{step.label}: {exc.message}", messages.WARNING)
            continue
        model_admin.log_change(request, step.target, logged)
        changed += 1
    model_admin.message_user(request, f"{changed} {done}.", messages.SUCCESS)
    return changed
