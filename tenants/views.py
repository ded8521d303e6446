"""GET and PATCH /v1/tenant: the calling tenant's own settings and quotas, never a secret."""

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.record import token_actor
from scheduler_site.openapi import errors, etag_parameters
from scheduler_site.preconditions import optional_expected_version, with_etag
from scheduler_site.query_params import NONE
from tasks.models import Tenant
from tenants.alert_docs import TENANT_ALERT
from tenants.quota_usage import quotas_of
from tenants.serializers import TenantOutput, TenantPatchInput
from tenants.settings_edit import tenant_settings_update

TENANT_ETAG, TENANT_IF_MATCH = etag_parameters("tenant's settings", "2", required=False)


def settings_response(tenant: Tenant) -> Response:
    body = {
        "id": str(tenant.id),
        "name": tenant.name,
        "is_active": tenant.is_active,
        "concurrency_limit": tenant.concurrency_limit,
        "allow_critical": tenant.allow_critical,
        "quotas": quotas_of(tenant),
        "on_failure_url": tenant.on_failure_url,
        "per_host_flows": tenant.per_host_flows,
        "version": tenant.settings_version,
        "created_at": TenantOutput().fields["created_at"].to_representation(tenant.created_at),
    }
    return with_etag(Response(body), tenant.settings_version)


class TenantView(APIView):
    known_query_params = NONE

    @extend_schema(
        summary="The tenant's own settings and quotas (never its signing secret or secrets)",
        parameters=[TENANT_ETAG],
        responses={200: TenantOutput, **errors()},
    )
    def get(self, request: Request) -> Response:
        return settings_response(Tenant.objects.get(id=request.user.id))

    @extend_schema(
        summary="Edit the tenant's settings: on_failure_url, per_host_flows (the rest read-only)",
        request=TenantPatchInput,
        parameters=[TENANT_IF_MATCH, TENANT_ETAG],
        responses={200: TenantOutput, **errors(400, 412, 413, 415)},
        callbacks=TENANT_ALERT,
    )
    def patch(self, request: Request) -> Response:
        version = optional_expected_version(request, "tenant")
        payload = TenantPatchInput(data=request.data)
        payload.is_valid(raise_exception=True)
        tenant = tenant_settings_update(
            tenant=request.user,
            expected_version=version,
            changes=dict(payload.validated_data),
            actor=token_actor(request),
        )
        return settings_response(tenant)
