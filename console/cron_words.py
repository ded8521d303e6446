"""A cron expression in words ("At 03:00, Monday through Friday"), by cron-descriptor."""

from __future__ import annotations

from cron_descriptor import (
    FormatException,
    MissingFieldException,
    Options,
    WrongArgumentException,
    get_description,
)

from tasks import schedule

# The macros the service takes (tasks/schedule.py), as the five fields they stand for.
MACRO_FIELDS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


def cron_in_words(cron: str, seed: str) -> str:
    """The task's expression in words, its `H` resolved with its id as the scheduler does;
    the raw text when the library cannot read it."""
    resolved = schedule.resolve_hash_cached(cron, seed)
    fields = MACRO_FIELDS.get(resolved.strip().lower(), resolved)
    options = Options()
    options.use_24hour_time_format = True  # the zone's wall clock, as the task page shows it
    try:
        return get_description(fields, options)
    except (FormatException, MissingFieldException, WrongArgumentException, ValueError):
        return resolved
