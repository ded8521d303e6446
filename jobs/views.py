"""The job API: one job, a task's runs, the DLQ, retry and cancel."""

import uuid
from datetime import UTC, datetime

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from history.records import RunCursor
from jobs import selectors, services
from jobs.discard import discard_dead_job
from jobs.run_now import task_run_now
from jobs.serializers import AttemptOutput, JobOutput
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.openapi import (
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    IF_MATCH_OPTIONAL,
    JOB_ID,
    LOCATION,
    PAGE,
    RETRY_AFTER,
    TASK_ID,
    errors,
    page_of,
)
from scheduler_site.pagination import bad_cursor, decode_cursor, page_limit, page_response
from scheduler_site.preconditions import optional_expected_version
from scheduler_site.query_params import NONE, label_params, uuid_param
from tasks.label_filters import parse_labels
from tasks.views import LABEL_FILTER, checked_idempotency_key

JOB_PAGE = page_of(JobOutput, "JobPage")
DLQ_TASK_FILTER = OpenApiParameter("task_id", OpenApiTypes.UUID, description="only this task's")
ATTEMPT_PAGE = page_of(AttemptOutput, "AttemptPage")


@extend_schema(parameters=[JOB_ID])
class JobItemView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="One job, from the queue or the history",
        responses={200: JobOutput, **errors(404, 503)},
    )
    def get(self, request: Request, job_id: str) -> Response:
        record = selectors.job_get(tenant=request.user, job_id=parse_id(job_id, "job"))
        return Response(JobOutput(record).data)


@extend_schema(parameters=[JOB_ID])
class JobAttemptsView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="Every call of one job, first first (the queue's log, or kept in its history)",
        responses={200: ATTEMPT_PAGE, **errors(404, 503)},
    )
    def get(self, request: Request, job_id: str) -> Response:
        attempts = selectors.job_attempts(tenant=request.user, job_id=parse_id(job_id, "job"))
        return page_response(request, AttemptOutput(attempts, many=True).data, None)


@extend_schema(parameters=[JOB_ID])
class JobRetryView(APIView):
    @extend_schema(
        summary="A dead job back to pending: same id, same scheduled_at, fresh attempts",
        request=None,
        responses={202: JobOutput, **errors(404, 409)},
    )
    def post(self, request: Request, job_id: str) -> Response:
        job = services.job_retry(
            tenant=request.user, actor=token_actor(request), job_id=parse_id(job_id, "job")
        )
        return Response(JobOutput(job).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(parameters=[JOB_ID])
class JobCancelView(APIView):
    @extend_schema(
        summary="Cancel a job not yet called: pending, held, waiting or throttled",
        request=None,
        responses={202: JobOutput, **errors(404, 409)},
    )
    def post(self, request: Request, job_id: str) -> Response:
        job = services.job_cancel(
            tenant=request.user, actor=token_actor(request), job_id=parse_id(job_id, "job")
        )
        return Response(JobOutput(job).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(parameters=[JOB_ID])
class JobDiscardView(APIView):
    @extend_schema(
        summary="Discard a dead job: cancelled, out of the DLQ for good, its last error kept",
        operation_id="discardJob",
        request=None,
        responses={200: JobOutput, **errors(404, 409)},
    )
    def post(self, request: Request, job_id: str) -> Response:
        job = discard_dead_job(
            tenant=request.user, actor=token_actor(request), job_id=parse_id(job_id, "job")
        )
        return Response(JobOutput(job).data)


@extend_schema(parameters=[TASK_ID])
class TaskRunNowView(APIView):
    @extend_schema(
        summary="Run the task once now, outside its schedule (also when paused)",
        request=None,
        parameters=[
            IDEMPOTENCY_KEY,
            IF_MATCH_OPTIONAL,
            LOCATION,
            IDEMPOTENT_REPLAYED,
            RETRY_AFTER,
        ],
        responses={202: JobOutput, **errors(404, 409, 412, 422, 429)},
    )
    def post(self, request: Request, task_id: str) -> Response:
        job, created = task_run_now(
            tenant=request.user,
            actor=token_actor(request),
            task_id=parse_id(task_id, "task"),
            idempotency_key=checked_idempotency_key(request.headers.get("Idempotency-Key")),
            expected_version=optional_expected_version(request, "task"),
        )
        response = Response(JobOutput(job).data, status=status.HTTP_202_ACCEPTED)
        response["Location"] = request.build_absolute_uri(f"/v1/jobs/{job.id}")
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response


@extend_schema(parameters=[TASK_ID])
class TaskRunsView(APIView):
    known_query_params = {"GET": {"cursor", "limit", "label"}}

    @extend_schema(
        summary="The task's runs, queue and history merged, newest first (with `label`: the"
        " queue's only, the history keeps no labels)",
        parameters=[*PAGE, LABEL_FILTER],
        responses={200: JOB_PAGE, **errors(400, 404, 503)},
    )
    def get(self, request: Request, task_id: str) -> Response:
        labels = parse_labels(label_params(request))
        limit = page_limit(request)
        records, next_cursor = selectors.task_runs(
            tenant=request.user,
            task_id=parse_id(task_id, "task"),
            before=_run_cursor(decode_cursor(request)),
            limit=limit,
            labels=labels,
        )
        position = None
        if next_cursor is not None:
            position = {"at": next_cursor.scheduled_at.isoformat(), "id": str(next_cursor.job_id)}
        return page_response(request, JobOutput(records, many=True).data, position)


def _run_cursor(position: dict | None) -> RunCursor | None:
    if position is None:
        return None
    try:
        moment = datetime.fromisoformat(position["at"])
        job_id = uuid.UUID(position["id"])
    except (KeyError, TypeError, ValueError) as exc:
        raise bad_cursor() from exc
    if moment.tzinfo is None:
        raise bad_cursor()
    try:
        moment = moment.astimezone(UTC)
    except OverflowError as exc:
        raise bad_cursor() from exc
    return RunCursor(moment, job_id)


class DeadLetterView(APIView):
    known_query_params = {"GET": {"cursor", "limit", "label", "task_id"}}

    @extend_schema(
        summary="The tenant's dead jobs, newest first",
        parameters=[*PAGE, LABEL_FILTER, DLQ_TASK_FILTER],
        responses={200: JOB_PAGE, **errors(400)},
    )
    def get(self, request: Request) -> Response:
        labels = parse_labels(label_params(request))
        limit = page_limit(request)
        position = decode_cursor(request) or {}
        before = None
        if "before" in position:
            try:
                before = uuid.UUID(str(position["before"]))
            except ValueError as exc:
                raise bad_cursor() from exc
        jobs = selectors.dead_jobs(
            tenant=request.user,
            before_id=before,
            limit=limit + 1,
            labels=labels,
            task_id=uuid_param(request, "task_id"),
        )
        next_position = {"before": str(jobs[limit - 1].id)} if len(jobs) > limit else None
        return page_response(request, JobOutput(jobs[:limit], many=True).data, next_position)
