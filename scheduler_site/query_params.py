"""Query parameters a list route knows: any other is a 400 naming it, so a typo (`lable=`)
is never read as "no filter" and answered with everything."""

from __future__ import annotations

from rest_framework.request import Request

from scheduler_site.errors import ValidationFailed


def refuse_unknown_params(request: Request, known: set[str]) -> None:
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        raise ValidationFailed(
            f"unknown query parameter: {', '.join(unknown)}",
            fields={name: "unknown query parameter" for name in unknown},
        )


def label_params(request: Request) -> list[str]:
    """Every `label` given (the parameter repeats: each one must match)."""
    return request.query_params.getlist("label")
