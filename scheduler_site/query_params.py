"""Query parameters a list route knows: any other is a 400 naming it, so a typo (`lable=`)
is never read as "no filter" and answered with everything."""

from __future__ import annotations

import uuid

from rest_framework.request import Request

from scheduler_site.errors import ValidationFailed


def refuse_unknown_params(request: Request, known: set[str]) -> None:
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        raise ValidationFailed(
            f"unknown query parameter: {', '.join(unknown)}",
            fields={name: "unknown query parameter" for name in unknown},
        )


PAGING = frozenset({"cursor", "limit"})
NONE: dict[str, frozenset[str]] = {}  # a view that takes no query parameter on any method


def label_params(request: Request) -> list[str]:
    """Every `label` given (the parameter repeats: each one must match)."""
    return request.query_params.getlist("label")


def uuid_param(request: Request, name: str) -> uuid.UUID | None:
    """An id given as a filter (`?task_id=`): a 400 naming it when it is not a UUID."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError as exc:
        raise ValidationFailed(f"{name} is not an id", fields={name: "a UUID"}) from exc
