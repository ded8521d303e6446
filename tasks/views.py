"""The task API: one view per route, each with its own input and output serializers."""

import hashlib
import json
import uuid

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.errors import ValidationFailed
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.openapi import (
    ETAG,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    IF_MATCH,
    IF_MATCH_OPTIONAL,
    LOCATION,
    PAGE,
    RETRY_AFTER,
    TASK_ID,
    errors,
    page_of,
)
from scheduler_site.pagination import bad_cursor, decode_cursor, page_limit, page_response
from scheduler_site.preconditions import expected_version, optional_expected_version, with_etag
from scheduler_site.query_params import NONE, label_params
from tasks import services
from tasks.callback_body_docs import TASK_CALLBACKS
from tasks.label_filters import parse_labels
from tasks.models import TaskStatus
from tasks.serializers import TaskInput, TaskOutput, TaskPatchInput, read_task

MAX_IDEMPOTENCY_KEY = 255
TASK_PAGE = page_of(TaskOutput, "TaskPage")
STATUS_FILTER = OpenApiParameter("status", enum=TaskStatus.values, description="only these tasks")
LABEL_FILTER = OpenApiParameter(
    "label",
    str,
    many=True,
    explode=True,
    description="`key:value`, e.g. `env:prod`; repeat it and every one must match",
)


NAME_FILTER = OpenApiParameter(
    "name", str, description="only the tasks of exactly this name (case and spaces count)"
)


def _task_response(task, status_code: int = status.HTTP_200_OK) -> Response:
    return with_etag(Response(TaskOutput(task).data, status=status_code), task.version)


def _idempotency_key(request: Request) -> str | None:
    return checked_idempotency_key(request.headers.get("Idempotency-Key"))


def checked_idempotency_key(key: object) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str):
        raise ValidationFailed(
            "Idempotency-Key is not valid", fields={"Idempotency-Key": "a string"}
        )
    key = key.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise ValidationFailed(
            "Idempotency-Key is not valid",
            fields={"Idempotency-Key": f"1 to {MAX_IDEMPOTENCY_KEY} printable characters"},
        )
    return key


def request_hash(data: object) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class TaskCollectionView(APIView):
    known_query_params = {"GET": {"cursor", "limit", "status", "label", "name"}}

    @extend_schema(
        summary="Create a task",
        request=TaskInput,
        parameters=[IDEMPOTENCY_KEY, ETAG, LOCATION, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={201: TaskOutput, **errors(400, 403, 409, 413, 415, 422, 429)},
        callbacks=TASK_CALLBACKS,
    )
    def post(self, request: Request) -> Response:
        key = _idempotency_key(request)

        task, created = services.task_create(
            tenant=request.user,
            actor=token_actor(request),
            read_data=lambda: read_task(request.data),
            idempotency_key=key,
            request_hash=request_hash(request.data) if key else "",
        )
        response = _task_response(task, status.HTTP_201_CREATED)
        response["Location"] = request.build_absolute_uri(f"/v1/tasks/{task.id}")
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response

    @extend_schema(
        summary="The tenant's tasks, newest first",
        operation_id="tasks_list",
        parameters=[*PAGE, STATUS_FILTER, LABEL_FILTER, NAME_FILTER],
        responses={200: TASK_PAGE, **errors(400)},
    )
    def get(self, request: Request) -> Response:
        labels = parse_labels(label_params(request))
        position = decode_cursor(request) or {}
        limit = page_limit(request)
        status_filter = request.query_params.get("status")
        if status_filter and status_filter not in TaskStatus.values:
            raise ValidationFailed("status is not valid", fields={"status": "unknown status"})
        after = parse_cursor_id(position.get("after"))
        tasks = services.task_list(
            tenant=request.user,
            after_id=after,
            limit=limit + 1,
            status=status_filter,
            labels=labels,
            name=request.query_params.get("name"),
        )
        next_position = {"after": str(tasks[limit - 1].id)} if len(tasks) > limit else None
        return page_response(request, TaskOutput(tasks[:limit], many=True).data, next_position)


def parse_cursor_id(raw: object) -> uuid.UUID | None:
    if raw is None:
        return None
    try:
        return uuid.UUID(str(raw))
    except ValueError as exc:
        raise bad_cursor() from exc


@extend_schema(parameters=[TASK_ID])
class TaskItemView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="One task, with its version in ETag",
        parameters=[ETAG],
        responses={200: TaskOutput, **errors(404)},
    )
    def get(self, request: Request, task_id: str) -> Response:
        task = services.task_get(tenant=request.user, task_id=parse_id(task_id, "task"))
        return _task_response(task)

    @extend_schema(
        summary="Edit a task (a schedule change recomputes next_run_at from now)",
        request=TaskPatchInput,
        parameters=[IF_MATCH, ETAG],
        responses={200: TaskOutput, **errors(400, 404, 409, 412, 413, 415, 428)},
        callbacks=TASK_CALLBACKS,
    )
    def patch(self, request: Request, task_id: str) -> Response:
        parsed_id = parse_id(task_id, "task")
        services.task_get(tenant=request.user, task_id=parsed_id)
        version = expected_version(request)
        payload = TaskPatchInput(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        task = services.task_update(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parsed_id,
            expected_version=version,
            changes=payload.validated_data,
        )
        return _task_response(task)

    @extend_schema(
        summary="Soft delete: the task never runs again, its waiting jobs are cancelled",
        parameters=[IF_MATCH],
        responses={204: None, **errors(404, 412, 428)},
    )
    def delete(self, request: Request, task_id: str) -> Response:
        parsed_id = parse_id(task_id, "task")
        services.task_get(tenant=request.user, task_id=parsed_id)
        services.task_delete(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parsed_id,
            expected_version=expected_version(request),
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(parameters=[TASK_ID])
class TaskPauseView(APIView):
    @extend_schema(
        summary="Pause: no runs, waiting jobs held, until resumed (If-Match honoured, not needed)",
        request=None,
        parameters=[IF_MATCH_OPTIONAL, ETAG],
        responses={200: TaskOutput, **errors(404, 409, 412)},
    )
    def post(self, request: Request, task_id: str) -> Response:
        parsed_id = parse_id(task_id, "task")
        services.task_get(tenant=request.user, task_id=parsed_id)
        task = services.task_pause(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parsed_id,
            expected_version=optional_expected_version(request, "task"),
        )
        return _task_response(task)


@extend_schema(parameters=[TASK_ID])
class TaskResumeView(APIView):
    @extend_schema(
        summary="Resume at the next future run; held jobs go on (If-Match honoured, not needed)",
        request=None,
        parameters=[IF_MATCH_OPTIONAL, ETAG],
        responses={200: TaskOutput, **errors(404, 409, 412)},
    )
    def post(self, request: Request, task_id: str) -> Response:
        parsed_id = parse_id(task_id, "task")
        services.task_get(tenant=request.user, task_id=parsed_id)
        task = services.task_resume(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parsed_id,
            expected_version=optional_expected_version(request, "task"),
        )
        return _task_response(task)
