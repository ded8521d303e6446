"""POST /v1/tasks/{id}/backfill: the runs of the task's past scheduled instants, made now."""

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from jobs.backfill import task_backfill
from jobs.backfill_range import MAX_INSTANTS, checked_range
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.openapi import RETRY_AFTER, TASK_ID, errors
from tasks.serializers import AwareDateTimeField, StrictSerializer


class BackfillInput(StrictSerializer):
    start = AwareDateTimeField(help_text="the first instant of the range (included)")
    end = AwareDateTimeField(help_text="the end of the range (excluded); not later than now")


class BackfillOutput(serializers.Serializer):
    made = serializers.IntegerField(help_text="runs this request made, due now")
    existing = serializers.IntegerField(
        help_text="instants whose run existed already (queued, finished or archived)"
    )
    instants = serializers.IntegerField(help_text="the task's scheduled instants in the range")


DESCRIPTION = f"""Makes now the run of every scheduled instant of a cron or interval task in
[start, end), inside the task's window. Each run keeps its own `scheduled_at` (its
`X-Scheduled-At`) and is due at once; an instant runs at most once ever, so a repeat makes
nothing new. At most {MAX_INSTANTS} instants per request; `start` at most as far back as the
history keeps runs (`HISTORY_RETENTION_DAYS`, 30 days by default). The runs are asked for by
hand, as with run now: they go out while the task is paused, ignore its `overlap` policy and
do not count toward `max_runs`. One request costs one task creation of the rate limit. 409
`task_deleted` for a deleted task, `not_recurring` for a one-off task, `tenant_stopped`."""


@extend_schema(parameters=[TASK_ID])
class TaskBackfillView(APIView):
    @extend_schema(
        summary="Make the runs of the task's scheduled instants in a past range, now",
        description=DESCRIPTION,
        request=BackfillInput,
        parameters=[RETRY_AFTER],
        responses={202: BackfillOutput, **errors(404, 409, 503)},
        examples=[
            OpenApiExample(
                "The last six hours of an hourly task",
                request_only=True,
                value={"start": "2026-11-30T06:00:00Z", "end": "2026-11-30T12:00:00Z"},
            ),
            OpenApiExample(
                "Four runs made, two existed",
                response_only=True,
                status_codes=["202"],
                value={"made": 4, "existing": 2, "instants": 6},
            ),
        ],
    )
    def post(self, request: Request, task_id: str) -> Response:
        payload = BackfillInput(data=request.data)
        payload.is_valid(raise_exception=True)
        window = checked_range(
            payload.validated_data["start"], payload.validated_data["end"], timezone.now()
        )
        done = task_backfill(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parse_id(task_id, "task"),
            window=window,
        )
        body = {"made": done.made, "existing": done.existing, "instants": done.instants}
        return Response(BackfillOutput(body).data, status=status.HTTP_202_ACCEPTED)
