"""POST /v1/dlq/retry and POST /v1/jobs/cancel: one request for every job a filter matches."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from jobs.bulk_filters import BulkFilterInput
from jobs.bulk_services import dlq_retry, jobs_cancel
from scheduler_site.openapi import RETRY_AFTER, errors


class BulkOutput(serializers.Serializer):
    count = serializers.IntegerField(help_text="jobs acted on (with dry_run: jobs matching)")
    refused = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="jobs matched but left as they were, by reason: `not_dead` or `not_pending`"
        " (changed meanwhile), `task_deleted`, `tenant_stopped`",
    )


EXAMPLES = [
    OpenApiExample(
        "one task's jobs",
        value={"task_id": "0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f"},
        request_only=True,
    ),
    OpenApiExample(
        "by label and time, counted first",
        value={
            "label": ["env:prod", "team:billing"],
            "scheduled_after": "2030-01-01T00:00:00Z",
            "scheduled_before": "2030-01-02T00:00:00Z",
            "dry_run": True,
        },
        request_only=True,
    ),
    OpenApiExample("by error text", value={"error_contains": "HTTP 503"}, request_only=True),
    OpenApiExample(
        "listed ids", value={"ids": ["0190f0c4-8c1e-7b7a-9b1e-3f1f2c4d5e6f"]}, request_only=True
    ),
    OpenApiExample("all retried", value={"count": 42, "refused": {}}, response_only=True),
    OpenApiExample(
        "some refused",
        value={"count": 40, "refused": {"task_deleted": 2}},
        response_only=True,
    ),
]


def _bulk(request: Request, action: Callable) -> Response:
    payload = BulkFilterInput(data=request.data)
    payload.is_valid(raise_exception=True)
    criteria = dict(payload.validated_data)
    dry_run = criteria.pop("dry_run")
    outcome = action(
        tenant=request.user, criteria=criteria, dry_run=dry_run, actor=token_actor(request)
    )
    return Response({"count": outcome.count, "refused": dict(outcome.refused)})


class DlqRetryView(APIView):
    @extend_schema(
        summary="Retry every dead job the filter matches (at least one criterion)",
        operation_id="dlq_bulk_retry",
        request=BulkFilterInput,
        examples=EXAMPLES,
        parameters=[RETRY_AFTER],
        responses={200: BulkOutput, **errors(400, 409, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        return _bulk(request, dlq_retry)


class JobsCancelView(APIView):
    @extend_schema(
        summary="Cancel every pending, held, waiting or throttled job the filter matches",
        operation_id="jobs_bulk_cancel",
        request=BulkFilterInput,
        examples=EXAMPLES,
        parameters=[RETRY_AFTER],
        responses={200: BulkOutput, **errors(400, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        return _bulk(request, jobs_cancel)
