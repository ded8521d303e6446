"""Request and response shapes of /v1/tenant."""

from drf_spectacular.utils import OpenApiExample, extend_schema_serializer
from rest_framework import serializers

from scheduler_site.body_fields import refuse_other_fields
from tasks.models import Tenant

EDITABLE = ("on_failure_url", "per_host_flows")
# Everything else a tenant is known to have, shown or not: named as read-only, not unknown.
READ_ONLY = frozenset(
    {field.name for field in Tenant._meta.concrete_fields} | {"quotas", "version"}
) - set(EDITABLE)

ALERT_HELP = (
    "called when a job of a task without an on_failure_url of its own dies, at most once per "
    "task per ALERT_WINDOW_SECONDS (60 s by default; the deaths in between are counted in the "
    "next alert's `deaths`); the same destination policy as a task's `url`; null: no alerts"
)

PER_HOST_HELP = (
    "each task without a flow_key goes through the flow `host:<host>[:port]` of its URL (no"
    " limits, the default circuit breaker). Off by default: one failing path of a host would"
    " otherwise hold back its healthy paths"
)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false only: DRF would read `"yes"`, `1` or `"off"` as a boolean."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class QuotaOutput(serializers.Serializer):
    limit = serializers.IntegerField(help_text="0 means unlimited")
    source = serializers.ChoiceField(
        choices=["tenant", "default"], help_text="the tenant's own value, or the settings default"
    )
    used = serializers.IntegerField(required=False, help_text="held now (tasks and secrets only)")


class QuotasOutput(serializers.Serializer):
    max_tasks = QuotaOutput(help_text="active, paused or suspended tasks")
    max_secrets = QuotaOutput(help_text="secrets stored")
    create_rate = QuotaOutput(help_text="task creations per second")
    create_burst = QuotaOutput(help_text="task creations at once")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "A tenant's settings",
            response_only=True,
            value={
                "id": "01a2325b-7e1c-7c4e-9c1a-3f0d5e6a7b8c",
                "name": "acme",
                "is_active": True,
                "concurrency_limit": 1000,
                "allow_critical": False,
                "quotas": {
                    "max_tasks": {"limit": 10000, "source": "default", "used": 42},
                    "max_secrets": {"limit": 20, "source": "tenant", "used": 3},
                    "create_rate": {"limit": 50, "source": "default"},
                    "create_burst": {"limit": 500, "source": "default"},
                },
                "on_failure_url": "https://example.com/hooks/alerts",
                "per_host_flows": False,
                "version": 2,
                "created_at": "2030-01-01T08:00:00Z",
            },
        )
    ]
)
class TenantOutput(serializers.Serializer):
    id = serializers.UUIDField(help_text="the tenant's id, in its tokens")
    name = serializers.CharField(help_text="set by an operator")
    is_active = serializers.BooleanField(help_text="false while an operator has stopped it")
    concurrency_limit = serializers.IntegerField(help_text="calls in flight at most")
    allow_critical = serializers.BooleanField(help_text="priority 0 granted by an operator")
    quotas = QuotasOutput(help_text="each limit, where it comes from, and what is used of it")
    on_failure_url = serializers.CharField(allow_null=True, help_text=ALERT_HELP)
    per_host_flows = serializers.BooleanField(help_text=PER_HOST_HELP)
    version = serializers.IntegerField(help_text="of the editable settings, also in ETag")
    created_at = serializers.DateTimeField(help_text="when the tenant was created")


@extend_schema_serializer(
    examples=[
        OpenApiExample(
            "Alert on every task's deaths",
            request_only=True,
            value={"on_failure_url": "https://example.com/hooks/alerts"},
        ),
        OpenApiExample("No more alerts", request_only=True, value={"on_failure_url": None}),
        OpenApiExample("A flow per host", request_only=True, value={"per_host_flows": True}),
    ]
)
class TenantPatchInput(serializers.Serializer):
    """Only on_failure_url and per_host_flows may change; any other field of the tenant is
    refused as read-only."""

    on_failure_url = serializers.CharField(
        max_length=2048, allow_null=True, required=False, trim_whitespace=False,
        help_text=ALERT_HELP,
    )  # fmt: skip
    per_host_flows = StrictBooleanField(required=False, help_text=PER_HOST_HELP)

    def to_internal_value(self, data):
        refuse_other_fields(data, EDITABLE, READ_ONLY)
        return super().to_internal_value(data)
