"""GET /v1/audit: the tenant's audit log, newest first. Read-only: any write is a 405."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.query import audit_filter
from audit.selectors import audit_entries
from scheduler_site.openapi import PAGE, errors, page_of
from scheduler_site.pagination import bad_cursor, decode_cursor, page_limit, page_response

KNOWN_PARAMS = {"cursor", "limit", "target", "action", "since", "until"}


class AuditEntryOutput(serializers.Serializer):
    id = serializers.CharField(help_text="the entry's id (entries are ordered by it)")
    at = serializers.DateTimeField(help_text="when the change was made, UTC")
    actor = serializers.CharField(
        help_text="the `jti` of the token that made it, `api_key:<id>` for an API key, or"
        " `operator:<username>` for the console"
    )
    action = serializers.CharField(help_text="`<thing>.<verb>`, e.g. `task.update`")
    target = serializers.CharField(help_text="the id (or a secret's name) acted on")
    changes = serializers.JSONField(
        help_text="what changed: `{field: {old, new}}` for an update, never a secret's value"
    )


FILTERS = [
    OpenApiParameter("target", OpenApiTypes.STR, description="only entries of this id or name"),
    OpenApiParameter("action", OpenApiTypes.STR, description="only this action, e.g. task.pause"),
    OpenApiParameter(
        "since", OpenApiTypes.DATETIME, description="entries at or after (ISO 8601, with offset)"
    ),
    OpenApiParameter(
        "until", OpenApiTypes.DATETIME, description="entries before (ISO 8601, with offset)"
    ),
]
EXAMPLE = OpenApiExample(
    "A task's schedule changed",
    response_only=True,
    value={
        "results": [
            {
                "id": "1042",
                "at": "2027-03-02T09:00:04.120000Z",
                "actor": "5f0c6a1e4b2d4c8f9e7a3b1d2c4e6f80",
                "action": "task.update",
                "target": "0193a4b2-7c1e-7d30-9a51-2f6b0c8e4d17",
                "changes": {"cron": {"old": "0 3 * * *", "new": "30 4 * * *"}},
            }
        ],
        "next": None,
    },
)
DESCRIPTION = """Every change made to the tenant's things, through the API or by an operator
in the console, one entry each, written in the same transaction as the change. Newest first;
filter by `target`, `action` and a time range (`since` included, `until` excluded). A filter
that matches nothing gives an empty page; an unknown query parameter is a 400 naming it.
Entries are kept `AUDIT_RETENTION_DAYS` (400)."""


class AuditLogView(APIView):
    known_query_params = {"GET": KNOWN_PARAMS}

    @extend_schema(
        summary="The tenant's audit log, newest first",
        description=DESCRIPTION,
        operation_id="audit_list",
        parameters=[*PAGE, *FILTERS],
        responses={200: page_of(AuditEntryOutput, "AuditPage"), **errors(400)},
        examples=[EXAMPLE],
    )
    def get(self, request: Request) -> Response:
        limit = page_limit(request)
        matching = audit_filter(request.query_params)
        entries = audit_entries(
            tenant_id=request.user.id,
            matching=matching,
            before_id=_cursor_id(decode_cursor(request)),
            limit=limit + 1,
        )
        position = {"before": str(entries[limit - 1].id)} if len(entries) > limit else None
        return page_response(request, AuditEntryOutput(entries[:limit], many=True).data, position)


def _cursor_id(position: dict | None) -> int | None:
    if position is None:
        return None
    raw = position.get("before", "")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        raise bad_cursor()
    return int(raw)
