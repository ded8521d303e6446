"""A flow's settings as the API takes them: whole JSON numbers only, within their bounds.

DRF's IntegerField reads `true`, `"3"` and `2.0` as numbers; a setting that limits calls
to someone's endpoint is refused unless it is written as the integer it means.
"""

from __future__ import annotations

from rest_framework import serializers

from flows.key_rule import is_flow_key
from flows.models import DEFAULT_BREAKER_COOLDOWN_SECONDS, DEFAULT_BREAKER_FAILURES, KEY_PATTERN

# field -> (lowest, highest); each is also the schema's minimum and maximum.
BOUNDS = {
    "parallelism": (1, 10_000),
    "rate": (1, 100_000),
    "period_seconds": (1, 86_400),
    "breaker_failures": (0, 1_000),
    "breaker_cooldown_seconds": (1, 86_400),
}
# What a PUT leaves out takes (a PUT replaces the whole of a flow's settings).
DEFAULTS = {
    "parallelism": None,
    "rate": None,
    "period_seconds": 1,
    "breaker_failures": DEFAULT_BREAKER_FAILURES,
    "breaker_cooldown_seconds": DEFAULT_BREAKER_COOLDOWN_SECONDS,
}


class WholeNumberField(serializers.IntegerField):
    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


def bounded(field: str, help_text: str, *, nullable: bool = False) -> WholeNumberField:
    """Not required: left out, it takes its default (also the schema's `default`)."""
    low, high = BOUNDS[field]
    return WholeNumberField(
        default=DEFAULTS[field],
        allow_null=nullable,
        min_value=low,
        max_value=high,
        help_text=help_text,
    )


FLOW_KEY_HELP = (
    "the flow its calls go through (`PUT /v1/flows/{key}` sets its limits): 1 to 100 of"
    " letters, digits, `_`, `.`, `:` and `-` (not `.` or `..`); a key naming no flow yet is"
    " allowed (a flow with no limits and the default breaker is made when first used); null:"
    " none"
)


class FlowKeyField(serializers.RegexField):
    """A task's `flow_key`: a string of the key's pattern (a number is not a key)."""

    def __init__(self, **kwargs):
        super().__init__(KEY_PATTERN, max_length=100, help_text=FLOW_KEY_HELP, **kwargs)
        self.error_messages["invalid"] = "1 to 100 of letters, digits, `_`, `.`, `:` and `-`"

    def to_internal_value(self, data):
        if not is_flow_key(data):
            self.fail("invalid")
        return super().to_internal_value(data)
