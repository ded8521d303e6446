"""Request and response shapes of /v1/flows (types only; the rules live in services)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from flows.fields import bounded
from flows.models import CircuitState
from scheduler_site.body_fields import refuse_other_fields

EDITABLE = (
    "parallelism",
    "rate",
    "period_seconds",
    "breaker_failures",
    "breaker_cooldown_seconds",
)
# Shown with a flow but not set by a PUT: named as read-only, not as unknown.
READ_ONLY = frozenset(
    {"key", "paused", "circuit", "waiting", "in_flight", "created_at", "updated_at"}
)

HELP = {
    "parallelism": "calls of this key in flight at once, across all executors; null: no limit",
    "rate": "at most this many calls start in any window of period_seconds; null: no limit",
    "period_seconds": "the rate's window (default 1); only with a rate",
    "breaker_failures": "consecutive failed calls (no connection, a timeout, a 5xx) that open"
    " the circuit (default 10); 0 turns the breaker off",
    "breaker_cooldown_seconds": "how long an opened circuit stays open before one probe call"
    " (default 30; doubled on each re-open, up to 10 minutes)",
}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "Two at a time, four a second",
            request_only=True,
            value={"parallelism": 2, "rate": 4, "period_seconds": 1},
        ),
        OpenApiExample(
            "100 an hour", request_only=True, value={"rate": 100, "period_seconds": 3600}
        ),
        OpenApiExample("No breaker", request_only=True, value={"breaker_failures": 0}),
    ]
)
class FlowInput(serializers.Serializer):
    """The whole of a flow's settings: a field left out takes its default."""

    parallelism = bounded("parallelism", HELP["parallelism"], nullable=True)
    rate = bounded("rate", HELP["rate"], nullable=True)
    period_seconds = bounded("period_seconds", HELP["period_seconds"])
    breaker_failures = bounded("breaker_failures", HELP["breaker_failures"])
    breaker_cooldown_seconds = bounded("breaker_cooldown_seconds", HELP["breaker_cooldown_seconds"])

    def to_internal_value(self, data):
        refuse_other_fields(data, EDITABLE, READ_ONLY)
        return super().to_internal_value(data)

    def validate(self, attrs: dict) -> dict:
        # Asked for, not defaulted: a period left out is the default one, rate or none.
        if "period_seconds" in self.initial_data and attrs.get("rate") is None:
            raise serializers.ValidationError(
                {"period_seconds": "only with a rate: the period is the rate's window"}
            )
        return attrs


class CircuitOutput(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=CircuitState.choices,
        help_text="closed: calls go; open: its jobs wait uncalled until retry_at; half_open:"
        " one probe call is out, its success closes the circuit",
    )
    failures = serializers.IntegerField(help_text="consecutive failed calls")
    opened_at = serializers.DateTimeField(
        allow_null=True, help_text="when the circuit last opened; null: never, or closed since"
    )
    retry_at = serializers.DateTimeField(allow_null=True, help_text="when the probe may go")


class FlowOutput(serializers.Serializer):
    key = serializers.CharField(help_text="the flow's key, what a task's `flow_key` names")
    parallelism = serializers.IntegerField(allow_null=True, help_text=HELP["parallelism"])
    rate = serializers.IntegerField(allow_null=True, help_text=HELP["rate"])
    period_seconds = serializers.IntegerField(help_text=HELP["period_seconds"])
    breaker_failures = serializers.IntegerField(help_text=HELP["breaker_failures"])
    breaker_cooldown_seconds = serializers.IntegerField(help_text=HELP["breaker_cooldown_seconds"])
    paused = serializers.BooleanField(help_text="its jobs wait until it is resumed")
    circuit = CircuitOutput(help_text="the circuit breaker of the flow's destination")
    waiting = serializers.IntegerField(help_text="jobs held back by this flow now (`throttled`)")
    in_flight = serializers.IntegerField(help_text="calls of this flow out now")
    created_at = serializers.DateTimeField(help_text="when the flow was first set")
    updated_at = serializers.DateTimeField(help_text="when its settings last changed")
