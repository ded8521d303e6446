"""The job API: one job, a task's runs, the DLQ, retry and cancel."""

import uuid
from datetime import UTC, datetime

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from history.records import RunCursor
from jobs import selectors, services
from jobs.serializers import AttemptOutput, JobOutput
from scheduler_site.ids_in_urls import parse_id
from scheduler_site.pagination import bad_cursor, decode_cursor, page_limit, page_response


class JobItemView(APIView):
    def get(self, request: Request, job_id: str) -> Response:
        record = selectors.job_get(tenant=request.user, job_id=parse_id(job_id, "job"))
        return Response(JobOutput(record).data)


class JobAttemptsView(APIView):
    def get(self, request: Request, job_id: str) -> Response:
        attempts = selectors.job_attempts(tenant=request.user, job_id=parse_id(job_id, "job"))
        return page_response(request, AttemptOutput(attempts, many=True).data, None)


class JobRetryView(APIView):
    def post(self, request: Request, job_id: str) -> Response:
        job = services.job_retry(tenant=request.user, job_id=parse_id(job_id, "job"))
        return Response(JobOutput(job).data, status=status.HTTP_202_ACCEPTED)


class JobCancelView(APIView):
    def post(self, request: Request, job_id: str) -> Response:
        job = services.job_cancel(tenant=request.user, job_id=parse_id(job_id, "job"))
        return Response(JobOutput(job).data, status=status.HTTP_202_ACCEPTED)


class TaskRunsView(APIView):
    def get(self, request: Request, task_id: str) -> Response:
        limit = page_limit(request)
        records, next_cursor = selectors.task_runs(
            tenant=request.user,
            task_id=parse_id(task_id, "task"),
            before=_run_cursor(decode_cursor(request)),
            limit=limit,
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
    def get(self, request: Request) -> Response:
        limit = page_limit(request)
        position = decode_cursor(request) or {}
        before = None
        if "before" in position:
            try:
                before = uuid.UUID(str(position["before"]))
            except ValueError as exc:
                raise bad_cursor() from exc
        jobs = selectors.dead_jobs(tenant=request.user, before_id=before, limit=limit + 1)
        next_position = {"before": str(jobs[limit - 1].id)} if len(jobs) > limit else None
        return page_response(request, JobOutput(jobs[:limit], many=True).data, next_position)
