"""The rules of a task's schedule kind and window: exactly one of cron, run_at and
interval_seconds; a window (starts_at, ends_at) and a run limit (max_runs) only on the
repeating kinds, with the end after the start. Instants are kept in UTC."""

from __future__ import annotations

from datetime import UTC

from scheduler_site.errors import ValidationFailed

KINDS = ("cron", "run_at", "interval_seconds")
WINDOW_FIELDS = ("starts_at", "ends_at", "max_runs")


def given_kinds(values: dict) -> list[str]:
    return [kind for kind in KINDS if values.get(kind) not in (None, "")]


def check_one_kind(values: dict) -> str:
    """The schedule's kind: the one of cron, run_at and interval_seconds that is given."""
    given = given_kinds(values)
    if len(given) != 1:
        message = "give exactly one of cron, run_at and interval_seconds"
        named = given if given else list(KINDS)
        raise ValidationFailed(message, fields=dict.fromkeys(named, message))
    return given[0]


def check_window(values: dict, kind: str) -> None:
    if kind == "run_at":
        for field in WINDOW_FIELDS:
            if values.get(field) is not None:
                message = "only a cron or interval task has a window or a run limit"
                raise ValidationFailed(f"{field}: {message}", fields={field: message})
        return
    for field in ("starts_at", "ends_at"):
        moment = values.get(field)
        if moment is not None:
            if moment.tzinfo is None:
                message = "must include a UTC offset, for example 2030-01-01T09:00:00Z"
                raise ValidationFailed(f"{field} {message}", fields={field: message})
            values[field] = moment.astimezone(UTC)
    starts_at, ends_at = values.get("starts_at"), values.get("ends_at")
    if starts_at is not None and ends_at is not None and ends_at <= starts_at:
        message = "must be after starts_at"
        raise ValidationFailed(f"ends_at {message}", fields={"ends_at": message})
    if values.get("max_runs") is not None and values["max_runs"] < 1:
        message = "must be at least 1"
        raise ValidationFailed(f"max_runs {message}", fields={"max_runs": message})


def clear_replaced_kinds(values: dict, changes: dict) -> None:
    """An edit that gives one kind replaces the task's other kinds (unless the edit gives
    them too, which is then refused); an edit to a one-off drops the window it cannot have."""
    for kind in given_kinds(changes):
        for other in KINDS:
            if other != kind and other not in changes:
                values[other] = None
    if given_kinds(values) == ["run_at"]:
        for field in WINDOW_FIELDS:
            if field not in changes:
                values[field] = None
