"""Shared pieces of the OpenAPI description: the one error shape, headers, pagination.

Views say which error statuses each route can answer with `errors(...)`; 400, 401, 429 and
503 are always among them (any request can be malformed; every route needs a token and takes
one of the tenant's request budget; the database may refuse any request a lock in time).
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers

from scheduler_site.pagination import MAX_LIMIT


class TenantTokenScheme(OpenApiAuthenticationExtension):
    target_class = "tasks.auth.TenantJWTAuthentication"
    name = "tenantToken"

    def get_security_definition(self, auto_schema) -> dict:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "JWT",
            "description": "a token from `manage.py issue_token TENANT_ID` (claim `tenant_id`)",
        }


class ErrorDetail(serializers.Serializer):
    code = serializers.CharField(help_text="stable, machine-readable, e.g. `not_found`")
    message = serializers.CharField(help_text="for people")
    fields = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text="each bad field and what is wrong with it (a string, a list or an object)",
    )


class ErrorBody(serializers.Serializer):
    error = ErrorDetail(help_text="what went wrong")


WHY = {
    400: "invalid request (`invalid`; `fields` names each bad field), or a Host not allowed",
    401: "no token or API key, or a bad, expired or revoked one",
    403: "a quota is used up (`quota_exceeded`; `fields.quota` names it), or a `read` API key"
    " asked for a change (`insufficient_scope`)",
    404: "unknown, or another tenant's",
    409: "the object is not in a state that allows this",
    412: "`If-Match` does not match the current version (`precondition_failed`)",
    413: "the request body is larger than 1 MiB (`too_large`)",
    415: "the body is not `application/json`",
    422: "this `Idempotency-Key` was used for another request (`idempotency_key_reused`)",
    428: "`If-Match` is missing (`precondition_required`)",
    429: "too many requests or task creations (`rate_limited`); see `Retry-After`",
    503: "the database refused a lock in time, a concurrent change holding it (`busy`), or,"
    " on a route that reads the history store, that store did not answer (`unavailable`);"
    " try again after `Retry-After`",
}

RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429, 503],
    description="seconds to wait before trying again",
)


def etag_parameters(what: str, example: str, *, required: bool) -> tuple:
    """The ETag a read of `what` answers with, and the If-Match a write sends it back in."""
    etag = OpenApiParameter(
        "ETag",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        response=[200, 201],
        description=f'the version of the {what}, e.g. `"{example}"`: send it back in `If-Match`',
    )
    if required:
        said = f'the ETag of the {what} as last read (e.g. `"{example}"`), or `*` for any version'
    else:
        said = f'optional: the ETag of the {what} as last read (e.g. `"{example}"`); stale: 412'
    if_match = OpenApiParameter(
        "If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER, required=required, description=said
    )
    return etag, if_match


ETAG, IF_MATCH = etag_parameters("task", "3", required=True)
# Pause, resume, run now and the upsert by name: honoured when sent, never required.
_, IF_MATCH_OPTIONAL = etag_parameters("task", "3", required=False)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="1-255 printable characters; a repeat with the same body replays the original",
)
IDEMPOTENT_REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[201, 202],
    enum=["true"],
    description="present when the answer is a replay of an earlier request with this key",
)
LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, response=[201, 202]
)
TASK_ID = OpenApiParameter("task_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
JOB_ID = OpenApiParameter("job_id", OpenApiTypes.UUID, OpenApiParameter.PATH)
SECRET_NAME = OpenApiParameter(
    "name",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    pattern=r"^(?!\.{1,2}$)[A-Za-z0-9_.-]{1,100}$",
    description="letters, digits, `_`, `.` and `-` (not `.` or `..`, which URLs cannot carry)",
)
PAGE = [
    OpenApiParameter("limit", OpenApiTypes.INT, description=f"1 to {MAX_LIMIT} (default 50)"),
    OpenApiParameter("cursor", OpenApiTypes.STR, description="from the `next` link"),
]


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    """The error responses of a route: always 400 (any request can be malformed, if only in
    its Host), 401, 429 (the tenant's request budget) and 503 (a row lock refused, a store
    down), plus the given statuses."""
    return {
        status: OpenApiResponse(ErrorBody, description=WHY[status])
        for status in sorted({400, 401, 429, 503, *statuses})
    }


def page_of(item: type[serializers.Serializer], name: str) -> serializers.Serializer:
    """The body of a list: one page of `item` and the link to the next page (or null)."""
    return inline_serializer(
        name,
        {
            "results": item(many=True, help_text="this page's items, in the list's order"),
            "next": serializers.URLField(allow_null=True, help_text="the next page, or null"),
        },
    )
