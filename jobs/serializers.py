from rest_framework import serializers

from jobs.models import JobStatus
from tasks.serializers import LabelsField


class JobOutput(serializers.Serializer):
    """A job from either store (a Job row or a HistoryRecord)."""

    id = serializers.UUIDField()
    task_id = serializers.UUIDField()
    scheduled_at = serializers.DateTimeField()
    status = serializers.ChoiceField(
        choices=JobStatus.choices,
        help_text="pending; held (its task is paused); waiting (its task's earlier run is"
        " unfinished, `overlap: buffer_one`); throttled (held back by its flow: at a limit,"
        " paused or its circuit open, uncharged and in its place); running; succeeded, dead or"
        " cancelled",
    )
    attempt = serializers.IntegerField()
    max_attempts = serializers.IntegerField()
    priority = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    claimed_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    http_status = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    response_body = serializers.CharField(allow_null=True)
    duration_ms = serializers.IntegerField(allow_null=True)
    labels = LabelsField(
        read_only=True,
        default=dict,
        help_text="the task's labels when the job was made (`{}` for an archived job)",
    )


class AttemptOutput(serializers.Serializer):
    """One call of a job."""

    attempt = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    outcome = serializers.ChoiceField(choices=["succeeded", "retry", "dead"])
    duration_ms = serializers.IntegerField(allow_null=True)
    http_status = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_null=True)
    response_head = serializers.CharField(allow_null=True)
