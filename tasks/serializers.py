"""Request and response shapes of the task API (types only; the rules live in services)."""

import threading
from datetime import UTC, datetime

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from flows.fields import FLOW_KEY_HELP, FlowKeyField
from tasks.callback_docs import CALLBACK_EXAMPLES, CALLBACK_HELP
from tasks.field_docs import FIELD_HELP as HELP
from tasks.labels import MAX_LABELS, MAX_VALUE_LENGTH, checked_labels
from tasks.models import HttpMethod, MisfirePolicy, OverlapPolicy, Task
from tasks.rules import LIMITS
from tasks.schedule_docs import FIELD_HELP, TASK_EXAMPLES


def bounded_integer(field: str) -> serializers.IntegerField:
    """An integer within the field's limits (tasks.rules), so the schema states them too."""
    low, high = LIMITS[field]
    return serializers.IntegerField(
        required=False, min_value=low, max_value=high, help_text=HELP[field]
    )


def callback_url(field: str) -> serializers.CharField:
    """An optional callback URL; null clears it. Refused, not trimmed, like `url`."""
    return serializers.CharField(
        max_length=2048,
        required=False,
        allow_null=True,
        trim_whitespace=False,
        help_text=CALLBACK_HELP[field],
    )


class StrictSerializer(serializers.Serializer):
    """Unknown fields are an error, so a typo or a read-only field is never silently lost."""

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["expected a JSON object"]})
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError(
                {name: ["unknown or read-only field"] for name in unknown}
            )
        return super().to_internal_value(data)


class AwareDateTimeField(serializers.DateTimeField):
    """An instant must say its offset: a naive time would be read in some unknown zone."""

    def enforce_timezone(self, value):
        if value.tzinfo is None:
            self.fail("naive")
        return super().enforce_timezone(value)

    default_error_messages = {
        **serializers.DateTimeField.default_error_messages,
        "naive": "must include a UTC offset, for example 2030-01-01T09:00:00Z",
    }


LABELS_SCHEMA = {
    "type": "object",
    "maxProperties": MAX_LABELS,
    "additionalProperties": {"type": "string", "maxLength": MAX_VALUE_LENGTH},
    "example": {"env": "prod", "team": "billing"},
}


@extend_schema_field(LABELS_SCHEMA)
class LabelsField(serializers.Field):
    """Up to 20 `key: value` string pairs (tasks/labels.py); null clears them."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "help_text",
            "up to 20 `key: value` pairs (keys 1-63 of `a-z0-9_.-`, values strings of up to"
            " 255 characters), copied onto each job",
        )
        super().__init__(**kwargs)

    def validate_empty_values(self, data):
        if data is None:
            return True, {}
        return super().validate_empty_values(data)

    def to_internal_value(self, data) -> dict[str, str]:
        return checked_labels(data)

    def get_attribute(self, instance) -> dict[str, str]:
        # NULL (a job of an unlabelled task) shows as `{}`: the same shape for every job.
        return super().get_attribute(instance) or {}

    def to_representation(self, value) -> dict[str, str]:
        return value


@extend_schema_serializer(examples=TASK_EXAMPLES + CALLBACK_EXAMPLES)
class TaskInput(StrictSerializer):
    """A task's schedule is exactly one of cron, run_at, interval_seconds. A cron or
    interval task may have a window (starts_at, ends_at) and a run limit (max_runs)."""

    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text=HELP["name"]
    )
    cron = serializers.CharField(
        max_length=200,
        required=False,
        allow_null=True,
        help_text="5-field cron in `timezone` (exactly one of cron, run_at, interval_seconds),"
        " e.g. `0 3 * * *`",
    )
    timezone = serializers.CharField(max_length=64, required=False, help_text=HELP["timezone"])
    run_at = AwareDateTimeField(
        required=False,
        allow_null=True,
        help_text="the one instant of a one-off task (exactly one of cron, run_at,"
        " interval_seconds), e.g. `2030-01-01T09:00:00Z`",
    )
    # Refused, not trimmed.
    url = serializers.CharField(max_length=2048, trim_whitespace=False, help_text=HELP["url"])
    method = serializers.ChoiceField(
        choices=HttpMethod.choices, required=False, help_text=HELP["method"]
    )
    # Kept exactly as given: DRF would trim header values silently.
    headers = serializers.DictField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=False),
        required=False,
        help_text=HELP["headers"],
    )
    body = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False, help_text=HELP["body"]
    )
    secret_ref = serializers.CharField(
        max_length=100, required=False, allow_null=True, help_text=HELP["secret_ref"]
    )
    priority = bounded_integer("priority")
    timeout_seconds = bounded_integer("timeout_seconds")
    max_attempts = bounded_integer("max_attempts")
    backoff_base_seconds = bounded_integer("backoff_base_seconds")
    misfire_policy = serializers.ChoiceField(
        choices=MisfirePolicy.choices, required=False, help_text=HELP["misfire_policy"]
    )
    interval_seconds = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=31_536_000,
        help_text=FIELD_HELP["interval_seconds"],
    )
    starts_at = AwareDateTimeField(
        required=False, allow_null=True, help_text=FIELD_HELP["starts_at"]
    )
    ends_at = AwareDateTimeField(required=False, allow_null=True, help_text=FIELD_HELP["ends_at"])
    max_runs = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2_147_483_647,
        help_text=FIELD_HELP["max_runs"],
    )
    overlap = serializers.ChoiceField(
        choices=OverlapPolicy.choices, required=False, help_text=FIELD_HELP["overlap"]
    )
    on_success_url = callback_url("on_success_url")
    on_failure_url = callback_url("on_failure_url")
    labels = LabelsField(required=False)
    flow_key = FlowKeyField(required=False, allow_null=True)


class TaskPatchInput(TaskInput):
    url = serializers.CharField(
        max_length=2048, required=False, trim_whitespace=False, help_text=HELP["url"]
    )
    timezone = serializers.CharField(max_length=64, required=False, help_text=HELP["timezone"])


# What a task's answer says of the fields no request sets (or sets under other rules).
OUTPUT_HELP = {
    "id": "the task's id (a UUIDv7), in its routes: `/v1/tasks/{id}`",
    "cron": "the 5-field cron in `timezone`; null: a one-off or interval task",
    "run_at": "the one instant of a one-off task; null: a cron or interval task",
    "status": "`active`; `paused` (runs held); `completed` (a one-off that ran, or a schedule"
    " past its window or `max_runs`); `suspended` (its tenant is stopped); `deleted`",
    "version": "raised by every change: send it as `If-Match` to change only what you read",
    "created_at": "when the task was created",
    "updated_at": "when the task last changed",
}


class TaskOutput(serializers.ModelSerializer):
    class Meta:
        model = Task
        fields = [
            "id",
            "name",
            "cron",
            "timezone",
            "run_at",
            "url",
            "method",
            "headers",
            "body",
            "secret_ref",
            "priority",
            "timeout_seconds",
            "max_attempts",
            "backoff_base_seconds",
            "misfire_policy",
            "interval_seconds",
            "starts_at",
            "ends_at",
            "max_runs",
            "runs_made",
            "overlap",
            "skipped_runs",
            "on_success_url",
            "on_failure_url",
            "labels",
            "flow_key",
            "status",
            "next_run_at",
            "version",
            "created_at",
            "updated_at",
        ]
        extra_kwargs = {
            name: {"help_text": text}
            for name, text in (
                HELP | FIELD_HELP | CALLBACK_HELP | {"flow_key": FLOW_KEY_HELP} | OUTPUT_HELP
            ).items()
        }

    labels = LabelsField(read_only=True)

    def to_representation(self, task: Task) -> dict:
        """Built directly: this body goes out for every task of a batch or a page, and the
        generic path walks twenty field objects per task, a fifth of a batch's time
        (tests/api/test_task_output.py keeps both equal)."""
        body = {name: getattr(task, name) for name in self.Meta.fields}
        body["id"] = str(task.id)
        for name in ("name", "cron", "timezone", "method", "misfire_policy", "overlap", "status"):
            if body[name] is not None:
                body[name] = str(body[name])  # a choice's member as its plain value
        for name in ("run_at", "starts_at", "ends_at", "next_run_at", "created_at", "updated_at"):
            body[name] = _iso_utc(body[name])
        return body


def _iso_utc(moment: datetime | None) -> str | None:
    """As DRF writes an aware datetime in the UTC zone: ISO 8601 ending in Z."""
    if moment is None:
        return None
    text = moment.astimezone(UTC).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


_readers = threading.local()


def read_task(data: object) -> dict:
    """A task's fields as POST /v1/tasks takes them, validated; a ValidationError names
    each bad field, as `is_valid(raise_exception=True)` would. One TaskInput per thread
    reads every request: a new serializer deep-copies all its fields, a quarter of a
    single create's CPU (py-spy, BENCHMARKS.md). Its fields keep no state of a request."""
    if data is None:  # a JSON null: what `Serializer.errors` says for no data
        raise serializers.ValidationError(
            {"non_field_errors": [ErrorDetail("No data provided", code="null")]}
        )
    reader = getattr(_readers, "task", None)
    if reader is None:
        reader = _readers.task = TaskInput()
    return reader.run_validation(data)
