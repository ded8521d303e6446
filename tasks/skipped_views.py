"""GET /v1/tasks/{id}/skipped: the task's skipped-run ledger, newest first."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from history.records import SkipCursor
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.openapi import PAGE, TASK_ID, errors, page_of
from scheduler_site.pagination import bad_cursor, decode_cursor, page_limit, page_response
from tasks.models import SkipReason
from tasks.skipped_reads import task_skipped_runs


class SkippedRunOutput(serializers.Serializer):
    """Consecutive scheduled runs of the task not made, all for one reason."""

    id = serializers.UUIDField(help_text="the ledger entry's id")
    reason = serializers.ChoiceField(
        choices=SkipReason.choices,
        help_text="paused, misfire (dropped by the skip/run_once policy after an outage), "
        "overlap, tenant_stopped or dst_gap",
    )
    first_scheduled_at = serializers.DateTimeField(help_text="the first run not made")
    last_scheduled_at = serializers.DateTimeField(help_text="the last run not made")
    count = serializers.IntegerField(help_text="how many runs, first and last included")
    recorded_at = serializers.DateTimeField(help_text="when the entry was last written")


SKIPPED_PAGE = page_of(SkippedRunOutput, "SkippedRunPage")
EXAMPLE = OpenApiExample(
    "A task paused for a day",
    value={
        "results": [
            {
                "id": "0193a4b2-7c1e-7d30-9a51-2f6b0c8e4d17",
                "reason": "paused",
                "first_scheduled_at": "2027-03-01T09:00:00Z",
                "last_scheduled_at": "2027-03-02T08:59:00Z",
                "count": 1440,
                "recorded_at": "2027-03-02T09:00:04.120000Z",
            }
        ],
        "next": None,
    },
    response_only=True,
)


@extend_schema(parameters=[TASK_ID])
class SkippedView(APIView):
    @extend_schema(
        summary="The task's skipped-run ledger, newest first",
        description=(
            "Every scheduled run that was not made, with its reason. Consecutive skips "
            "for one reason are one entry (a task paused for a month is one entry), "
            "ordered by last_scheduled_at then id, newest first; entries archived to the "
            "history store are included. 503 when the history store cannot be read."
        ),
        parameters=PAGE,
        responses={200: SKIPPED_PAGE, **errors(400, 404, 503)},
        examples=[EXAMPLE],
    )
    def get(self, request: Request, task_id: str) -> Response:
        records, next_cursor = task_skipped_runs(
            tenant=request.user,
            task_id=parse_id(task_id, "task"),
            before=_cursor(decode_cursor(request)),
            limit=page_limit(request),
        )
        position = None
        if next_cursor is not None:
            position = {
                "at": next_cursor.last_scheduled_at.isoformat(),
                "id": str(next_cursor.entry_id),
            }
        return page_response(request, SkippedRunOutput(records, many=True).data, position)


def _cursor(position: dict | None) -> SkipCursor | None:
    if position is None:
        return None
    try:
        moment = datetime.fromisoformat(position["at"])
        entry_id = uuid.UUID(position["id"])
        if moment.tzinfo is None:
            raise ValueError("naive")
        return SkipCursor(moment.astimezone(UTC), entry_id)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise bad_cursor() from exc
