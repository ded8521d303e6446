"""POST /v1/schedule-preview: the next runs of a schedule, before any task exists."""

import copy

from django.utils import timezone as django_timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scheduler_site.errors import ValidationFailed
from scheduler_site.openapi import errors
from tasks import schedule, schedule_rules, services
from tasks.preview import MAX_COUNT, PREVIEW_SEED, preview_schedule, run_body
from tasks.serializers import StrictSerializer, TaskInput


def _task_field(name: str) -> serializers.Field:
    """The task's own field, so a preview takes exactly what a task takes."""
    return copy.deepcopy(TaskInput._declared_fields[name])


class SchedulePreviewInput(StrictSerializer):
    cron = _task_field("cron")
    interval_seconds = _task_field("interval_seconds")
    timezone = _task_field("timezone")
    starts_at = _task_field("starts_at")
    ends_at = _task_field("ends_at")
    max_runs = _task_field("max_runs")
    count = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_COUNT, help_text="runs to show (default 10)"
    )


class PreviewRunOutput(serializers.Serializer):
    at = serializers.DateTimeField(help_text="the run's instant, UTC")
    local = serializers.CharField(help_text="the same instant in the zone, ISO with its offset")
    dst = serializers.ChoiceField(
        choices=["moved", "merged", "repeated"],
        allow_null=True,
        help_text="null, or the daylight-saving rule that placed this run: `moved` (a wall "
        "time of a spring-forward gap, run when the gap ends), `merged` (several wall times "
        "collapsed into this one run; the others are `dst_gap` in the ledger), `repeated` (the "
        "second pass of a fall-back's repeated hour, for a wildcard or step hour)",
    )
    merged_count = serializers.IntegerField(
        allow_null=True, help_text="how many wall times a merged run stands for"
    )
    wall_times = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="the local wall times a moved or merged run stands for",
    )


class SchedulePreviewOutput(serializers.Serializer):
    cron = serializers.CharField(
        allow_null=True, help_text=f"the expression used; `H` resolved with seed {PREVIEW_SEED!r}"
    )
    timezone = serializers.CharField(help_text="the IANA zone the runs are read in")
    runs = PreviewRunOutput(many=True, help_text="the next runs, first first")


EXAMPLE_REQUEST = {
    "cron": "15,45 2 * * *",
    "timezone": "Europe/Madrid",
    "starts_at": "2027-03-27T00:00:00Z",
    "count": 2,
}
EXAMPLE_RESPONSE = {
    "cron": "15,45 2 * * *",
    "timezone": "Europe/Madrid",
    "runs": [
        {
            "at": "2027-03-27T01:15:00Z",
            "local": "2027-03-27T02:15:00+01:00",
            "dst": None,
            "merged_count": None,
            "wall_times": None,
        },
        {
            "at": "2027-03-28T01:00:00Z",
            "local": "2027-03-28T03:00:00+02:00",
            "dst": "merged",
            "merged_count": 2,
            "wall_times": ["2027-03-28T02:15", "2027-03-28T02:45"],
        },
    ],
}
DESCRIPTION = (
    "The next `count` runs (default 10, at most 100) of a task's schedule fields, from now "
    "or from `starts_at` if later, inside the window and within `max_runs`, in UTC and in "
    "the zone, each marked with the daylight-saving rule that placed it. Nothing is created. "
    "The fields are validated as a task's. `H` has no task id here: it is resolved with a "
    f"fixed seed ({PREVIEW_SEED!r}) and `cron` answers the expression used; a task's own `H` "
    "values come from its id (its `next_run_at` says when it runs)."
)


class SchedulePreviewView(APIView):
    # A POST only because a schedule is a body: it writes nothing, so a read key may call it.
    changes_nothing = True

    @extend_schema(
        summary="Preview the runs of a schedule",
        description=DESCRIPTION,
        request=SchedulePreviewInput,
        responses={200: SchedulePreviewOutput, **errors(415)},
        examples=[
            OpenApiExample("gap in Madrid", value=EXAMPLE_REQUEST, request_only=True),
            OpenApiExample("gap in Madrid", value=EXAMPLE_RESPONSE, response_only=True),
        ],
    )
    def post(self, request: Request) -> Response:
        payload = SchedulePreviewInput(data=request.data)
        payload.is_valid(raise_exception=True)
        values = dict(payload.validated_data)
        cron, zone = _checked(values)
        runs = preview_schedule(
            cron=cron,
            interval_seconds=values.get("interval_seconds"),
            timezone=zone,
            starts_at=values.get("starts_at"),
            ends_at=values.get("ends_at"),
            max_runs=values.get("max_runs"),
            count=values.get("count") or 10,
            now=django_timezone.now(),
        )
        return Response({"cron": cron, "timezone": zone, "runs": [run_body(r) for r in runs]})


def _checked(values: dict) -> tuple[str | None, str]:
    """The resolved cron (or None) and the zone, or the 400 a task would answer."""
    cron, interval = values.get("cron"), values.get("interval_seconds")
    if bool(cron) == bool(interval):
        message = "give exactly one of cron and interval_seconds"
        raise ValidationFailed(message, fields={"cron": message, "interval_seconds": message})
    zone = values.get("timezone") or "UTC"
    schedule_rules.check_window(values, "cron" if cron else "interval_seconds")
    if not cron:
        services.checked_zone(zone)
        return None, zone
    stored = services.checked_cron(cron, zone, PREVIEW_SEED)
    return schedule.resolve_hash(stored, PREVIEW_SEED), zone
