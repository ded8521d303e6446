"""Request and response shapes of /v1/api-keys: never the key's hash; the key itself only
in the answer of its creation."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from scheduler_site.body_fields import refuse_other_fields
from tasks.serializers import AwareDateTimeField
from tenants.models import ApiKeyScope

EDITABLE = ("name", "scope", "expires_at")
READ_ONLY = ("id", "prefix", "key", "created_at", "last_used_at", "revoked_at")

SCOPE_HELP = (
    "`read`: GET requests (but the signing secret's) and `POST /v1/schedule-preview` (which"
    " writes nothing) only, any other is a 403; `write`: everything"
)
EXPIRES_HELP = (
    "after this instant the key is refused (401); null: it never expires. A key made with an"
    " expiring key lives no longer than it (left out: until it expires)"
)
PREFIX_HELP = "the key's first characters, to tell keys apart (e.g. `acs_k3j9x2qa`)"
ID_HELP = "the key's id, in `/v1/api-keys/{id}` (not the key itself)"
NAME_HELP = "for people, e.g. `deploy script`"

EXAMPLE_KEY = {
    "id": "019a2f4c-1d2e-7b3a-9c8d-0e1f2a3b4c5d",
    "name": "deploy script",
    "scope": "write",
    "prefix": "acs_k3j9x2qa",
    "created_at": "2030-01-01T08:00:00Z",
    "expires_at": "2031-01-01T00:00:00Z",
}


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A key for a deploy script",
            request_only=True,
            value={"name": "deploy script", "scope": "write", "expires_at": "2031-01-01T00:00:00Z"},
        ),
        OpenApiExample(
            "A dashboard's read-only key",
            request_only=True,
            value={"name": "grafana", "scope": "read"},
        ),
    ]
)
class ApiKeyInput(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text=NAME_HELP)
    scope = serializers.ChoiceField(choices=ApiKeyScope.choices, help_text=SCOPE_HELP)
    expires_at = AwareDateTimeField(required=False, allow_null=True, help_text=EXPIRES_HELP)

    def to_internal_value(self, data):
        refuse_other_fields(data, EDITABLE, READ_ONLY)
        return super().to_internal_value(data)

    def validate_expires_at(self, value: datetime | None) -> datetime | None:
        if value is not None and value <= timezone.now():
            raise serializers.ValidationError("must be in the future")
        return value


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A key",
            response_only=True,
            value=EXAMPLE_KEY | {"last_used_at": "2030-01-02T10:15:00Z"},
        )
    ]
)
class ApiKeyOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text=ID_HELP)
    name = serializers.CharField(help_text=NAME_HELP)
    scope = serializers.ChoiceField(choices=ApiKeyScope.choices, help_text=SCOPE_HELP)
    prefix = serializers.CharField(help_text=PREFIX_HELP)
    created_at = serializers.DateTimeField(help_text="when the key was made")
    last_used_at = serializers.DateTimeField(
        allow_null=True, help_text="the latest request made with it, to the minute; null: none"
    )
    expires_at = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A new key",
            response_only=True,
            value=EXAMPLE_KEY | {"key": "acs_k3j9x2qa_mF0x3Qe2vTqkz7cYpW1sN8hJdR5uLgA9bXoE4iC6tMy"},
        )
    ]
)
class CreatedApiKeyOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text=ID_HELP)
    name = serializers.CharField(help_text=NAME_HELP)
    scope = serializers.ChoiceField(choices=ApiKeyScope.choices, help_text=SCOPE_HELP)
    prefix = serializers.CharField(help_text=PREFIX_HELP)
    key = serializers.CharField(
        help_text="the key, shown this once (only its hash is kept): send it as"
        " `Authorization: Bearer <key>`"
    )
    created_at = serializers.DateTimeField(help_text="when the key was made")
    expires_at = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)
