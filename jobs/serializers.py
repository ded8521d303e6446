from rest_framework import serializers

from jobs.models import JobStatus
from tasks.serializers import LabelsField


class JobOutput(serializers.Serializer):
    """A job from either store (a Job row or a HistoryRecord)."""

    id = serializers.UUIDField(
        help_text="the job's id (a UUIDv7), also its calls' `Idempotency-Key` and `webhook-id`"
    )
    task_id = serializers.UUIDField(help_text="the task that made the job")
    scheduled_at = serializers.DateTimeField(
        help_text="the run's instant in the schedule (`X-Scheduled-At` of its calls)"
    )
    status = serializers.ChoiceField(
        choices=JobStatus.choices,
        help_text="pending; held (its task is paused); waiting (its task's earlier run is"
        " unfinished, `overlap: buffer_one`); throttled (held back by its flow: at a limit,"
        " paused or its circuit open, uncharged and in its place); running; succeeded, dead or"
        " cancelled",
    )
    attempt = serializers.IntegerField(help_text="the calls made so far (0: none yet)")
    max_attempts = serializers.IntegerField(
        help_text="the calls allowed before the job is dead and in the DLQ"
    )
    priority = serializers.IntegerField(help_text="0 most urgent to 9, the task's when made")
    next_attempt_at = serializers.DateTimeField(
        allow_null=True, help_text="when the job is (or was last) due for its next call"
    )
    claimed_at = serializers.DateTimeField(
        allow_null=True, help_text="when an executor took it; null: not yet"
    )
    started_at = serializers.DateTimeField(
        allow_null=True, help_text="when its last call started; null: none yet"
    )
    finished_at = serializers.DateTimeField(
        allow_null=True, help_text="when it ended (succeeded, dead or cancelled); null: not yet"
    )
    http_status = serializers.IntegerField(
        allow_null=True, help_text="the last call's HTTP status; null: no answer (or no call)"
    )
    error = serializers.CharField(
        allow_null=True, help_text="why the last call failed, e.g. `HTTP 503`; null: it did not"
    )
    response_body = serializers.CharField(
        allow_null=True, help_text="the first 4 KiB of the last call's answer; null: none"
    )
    duration_ms = serializers.IntegerField(
        allow_null=True, help_text="the last call's duration in milliseconds; null: none"
    )
    labels = LabelsField(
        read_only=True,
        default=dict,
        help_text="the task's labels when the job was made (`{}` for an archived job)",
    )


class AttemptOutput(serializers.Serializer):
    """One call of a job."""

    attempt = serializers.IntegerField(help_text="1 for the first call, then 2, 3, ...")
    started_at = serializers.DateTimeField(help_text="when the call started")
    outcome = serializers.ChoiceField(
        choices=["succeeded", "retry", "dead"],
        help_text="`succeeded`; `retry` (failed, another call follows); `dead` (failed, the last)",
    )
    duration_ms = serializers.IntegerField(
        allow_null=True, help_text="how long the call took in milliseconds; null: unknown"
    )
    http_status = serializers.IntegerField(
        allow_null=True, help_text="the answer's HTTP status; null: no answer"
    )
    error = serializers.CharField(
        allow_null=True, help_text="why it failed, e.g. `lease expired`; null: it did not"
    )
    response_head = serializers.CharField(
        allow_null=True, help_text="the first 256 characters of the answer; null: none"
    )
