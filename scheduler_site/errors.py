"""One application error type and one handler that shapes every API error response.

Every error body is `{"error": {"code": ..., "message": ..., "fields": {...}}}`.
"""

import logging
import math

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from scheduler_site.sqltools import lock_refused

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"
    headers: dict[str, str] = {}  # noqa: RUF012 - replaced, never mutated

    def __init__(self, message: str, *, fields: dict | None = None, code: str | None = None):
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        if code:
            self.code = code


class ValidationFailed(ApplicationError):
    """400: the request is malformed; `fields` names each bad field."""


class NotFound(ApplicationError):
    status_code = status.HTTP_404_NOT_FOUND
    code = "not_found"


class Conflict(ApplicationError):
    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


class PreconditionFailed(ApplicationError):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    code = "precondition_failed"


class Unprocessable(ApplicationError):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    code = "unprocessable"


class PreconditionRequired(ApplicationError):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    code = "precondition_required"


class QuotaExceeded(ApplicationError):
    """403: a count quota of the tenant is used up; `fields` names the quota."""

    status_code = status.HTTP_403_FORBIDDEN
    code = "quota_exceeded"


class RateLimited(ApplicationError):
    """429: too many requests of one kind; Retry-After says when to try again."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float):
        super().__init__(message)
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


class ServiceUnavailable(ApplicationError):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    code = "unavailable"

    def __init__(self, message: str, *, retry_after: float | None = None):
        super().__init__(message)
        if retry_after is not None:
            self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


def error_response(
    status_code: int, code: str, message: str, fields: dict | None = None
) -> Response:
    body = {"error": {"code": code, "message": message}}
    if fields:
        body["error"]["fields"] = fields
    return Response(body, status=status_code)


def _flatten(detail) -> object:
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        flat = [_flatten(item) for item in detail]
        return flat[0] if len(flat) == 1 and isinstance(flat[0], str) else flat
    return str(detail)


def error_body(exc: Exception) -> tuple[int, dict] | None:
    """The status and body of an application or validation error; None for any other."""
    if isinstance(exc, ApplicationError):
        code, message, fields = exc.code, exc.message, exc.fields
    elif isinstance(exc, exceptions.ValidationError):
        code, message, fields = "invalid", "the request is invalid", _flatten(exc.detail)
        if not isinstance(fields, dict):
            fields = {"non_field_errors": fields}
    else:
        return None
    body = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    return getattr(exc, "status_code", 400), {"error": body}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    shaped = error_body(exc)
    if shaped is not None:
        response = Response(shaped[1], status=shaped[0])
        for name, value in getattr(exc, "headers", {}).items():
            response[name] = value
        return response
    if isinstance(exc, (Http404, exceptions.NotFound)):
        return error_response(404, "not_found", "not found")
    if isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if lock_refused(exc):
        return _lost_a_race(exc, context)
    response = exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled error in %s", context.get("view"))
        return error_response(500, "internal", "internal error")
    detail = (
        response.data.get("detail", "error") if isinstance(response.data, dict) else response.data
    )
    code = getattr(detail, "code", None) or getattr(exc, "default_code", "error")
    shaped = error_response(response.status_code, code, str(detail))
    for header in ("WWW-Authenticate", "Retry-After", "Allow"):
        if header in response:
            shaped[header] = response[header]
    return shaped


def _lost_a_race(exc: Exception, context: dict) -> Response:
    """The database refused this request's transaction a lock: another write took the same
    rows in the other order (a resume and a tenant's first flow-named edit of one task, say),
    or held a lock past the wait. The transaction was rolled back (a bulk action's earlier
    batches stay committed); a 503 with Retry-After, which the SDK and most clients send
    again, not a 500."""
    logger.warning("%s was refused a lock: %s", context.get("view"), exc)
    response = error_response(
        503,
        "busy",
        "the database refused this request a lock in time (a concurrent change); what it "
        "had not committed was undone, try again",
    )
    response["Retry-After"] = "1"
    return response
