"""POST /v1/tasks/batch: up to 500 creates in one request, one result per item."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.errors import ApplicationError, ValidationFailed
from scheduler_site.openapi import RETRY_AFTER, ErrorDetail, errors
from tasks.batch_create import MAX_BATCH, BatchItem, ItemResult, tasks_create_batch
from tasks.rate_limit import take_creation_token
from tasks.serializers import StrictSerializer, TaskInput, TaskOutput, read_task
from tasks.views import checked_idempotency_key, request_hash


class TaskBatchInput(StrictSerializer):
    tasks = serializers.ListField(child=serializers.JSONField(), min_length=1, max_length=MAX_BATCH)


class BatchTaskInput(TaskInput):
    """Only for the schema: a batch item is a task plus its own optional key (read_item)."""

    idempotency_key = serializers.CharField(
        max_length=255,
        required=False,
        help_text="this item's own `Idempotency-Key`: a repeat with the same task replays it",
    )


class BatchSchemaInput(StrictSerializer):
    tasks = BatchTaskInput(
        many=True,
        min_length=1,
        max_length=MAX_BATCH,
        help_text=f"1 to {MAX_BATCH} tasks as `POST /v1/tasks` takes them, each created or"
        " refused on its own",
    )


class BatchItemOutput(serializers.Serializer):
    index = serializers.IntegerField(help_text="the item's place in the request, from 0")
    status = serializers.IntegerField(help_text="201, or the status a single create gives")
    task = TaskOutput(required=False, help_text="the task made (or replayed); absent on an error")
    replayed = serializers.BooleanField(
        required=False, help_text="true: the item's `idempotency_key` was seen, nothing was made"
    )
    error = ErrorDetail(required=False, help_text="why the item was refused; absent otherwise")


class BatchOutput(serializers.Serializer):
    results = BatchItemOutput(many=True, help_text="one per item, in the request's order")


def read_item(raw: object) -> BatchItem:
    """One item: a task as POST /v1/tasks takes it (validated by the same per-thread reader
    as a single create, tasks.serializers.read_task), and an optional `idempotency_key`."""
    if not isinstance(raw, dict):
        return BatchItem(None, error=ValidationFailed("a task must be a JSON object"))
    fields = dict(raw)
    try:
        key = checked_idempotency_key(fields.pop("idempotency_key", None))
        data = read_task(fields)
    except (ApplicationError, serializers.ValidationError) as exc:
        return BatchItem(None, error=exc)
    return BatchItem(data, key, request_hash(fields) if key else "")


def result_bodies(results: list[ItemResult]) -> list[dict]:
    """One body per item; the tasks serialized in one pass (one serializer for them all)."""
    tasks = iter(TaskOutput([r.task for r in results if r.task is not None], many=True).data)
    bodies = []
    for index, result in enumerate(results):
        body: dict = {"index": index, "status": result.status}
        if result.task is not None:
            body.update(task=next(tasks), replayed=result.replayed)
        else:
            body["error"] = result.error
        bodies.append(body)
    return bodies


class TaskBatchView(APIView):
    @extend_schema(
        summary=f"Create up to {MAX_BATCH} tasks, one result per item in order",
        request=BatchSchemaInput,
        parameters=[RETRY_AFTER],
        responses={200: BatchOutput, **errors(400, 409, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        payload = TaskBatchInput(data=request.data)
        if not payload.is_valid():
            raise ValidationFailed(
                f'send {{"tasks": [...]}} with 1 to {MAX_BATCH} tasks',
                fields={"tasks": f"a list of 1 to {MAX_BATCH} task objects"},
            )
        raw_items = payload.validated_data["tasks"]
        # Before any item is read: a batch of refused items costs the rate as much.
        take_creation_token(request.user, len(raw_items))
        items = [read_item(raw) for raw in raw_items]
        results = tasks_create_batch(tenant=request.user, actor=token_actor(request), items=items)
        return Response({"results": result_bodies(results)})
