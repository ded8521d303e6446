"""PUT /v1/tasks/by-name/{name}: create or replace the tenant's task of that name."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.errors import NotFound, ValidationFailed
from scheduler_site.openapi import ETAG, IF_MATCH_OPTIONAL, LOCATION, RETRY_AFTER, errors
from scheduler_site.preconditions import optional_expected_version, with_etag
from scheduler_site.query_params import NONE
from tasks.callback_body_docs import TASK_CALLBACKS
from tasks.serializers import TaskInput, TaskOutput, read_task
from tasks.task_names import checked_name
from tasks.upsert import named_task, task_upsert

NAME = OpenApiParameter(
    "name",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    description="the task's name (1-200 characters, URL-encoded), e.g. `nightly-report`",
)
DESCRIPTION = """Creates the tenant's task of this name (201) or replaces it (200, the same
`id`): the body is a full task as `POST /v1/tasks` takes it, and a field left out goes back
to its default. Applying the same body again changes nothing (200, same version), so a
deploy script can sync its tasks by name. `name` may be left out of the body; given, it must
be the path's. If-Match is honoured when sent (stale: 412), not required; `If-Match: *` replaces
only (412 when no task has the name). Several of the
tenant's tasks with this name (which `POST /v1/tasks` allows) are a 409 naming them."""


@extend_schema(parameters=[NAME])
class TaskByNameView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="Create or replace the task of this name",
        description=DESCRIPTION,
        operation_id="upsertTaskByName",
        request=TaskInput,
        parameters=[IF_MATCH_OPTIONAL, ETAG, LOCATION, RETRY_AFTER],
        responses={200: TaskOutput, 201: TaskOutput, **errors(400, 403, 409, 412, 413, 415, 429)},
        callbacks=TASK_CALLBACKS,
    )
    def put(self, request: Request, name: str) -> Response:
        name = checked_name(name)
        version = optional_expected_version(request, "task")
        data = read_task(request.data)
        if "name" in data and data["name"] != name:
            message = f"must be the name in the path ({name!r}) or left out"
            raise ValidationFailed(f"name {message}", fields={"name": message})
        task, created = task_upsert(
            tenant=request.user,
            actor=token_actor(request),
            name=name,
            data=data,
            expected_version=version,
            must_exist=(request.headers.get("If-Match") or "").strip() == "*",
        )
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        response = Response(TaskOutput(task).data, status=code)
        if created:
            response["Location"] = request.build_absolute_uri(f"/v1/tasks/{task.id}")
        return with_etag(response, task.version)

    @extend_schema(
        summary="The task of this name, with its version in ETag",
        operation_id="getTaskByName",
        parameters=[ETAG],
        responses={200: TaskOutput, **errors(404, 409)},
    )
    def get(self, request: Request, name: str) -> Response:
        task = named_task(tenant=request.user, name=checked_name(name))
        if task is None:
            raise NotFound(f"no task is named {name!r}")
        return with_etag(Response(TaskOutput(task).data), task.version)
