"""The tenant comes from the token's `tenant_id` claim and from nowhere else."""

import uuid
from datetime import timedelta

from django.conf import settings
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed, InvalidToken
from rest_framework_simplejwt.tokens import AccessToken

from tasks.models import Tenant

TENANT_CLAIM = "tenant_id"


class TenantJWTAuthentication(JWTAuthentication):
    """Authenticates a request as a Tenant; an unknown or deactivated tenant is a 401."""

    def get_user(self, validated_token) -> Tenant:
        try:
            tenant_id = uuid.UUID(str(validated_token[TENANT_CLAIM]))
        except (KeyError, ValueError) as exc:
            raise InvalidToken("the token carries no valid tenant_id claim") from exc
        tenant = Tenant.objects.filter(id=tenant_id, is_active=True).first()
        if tenant is None:
            raise AuthenticationFailed("unknown tenant", code="tenant_not_found")
        return tenant


def issue_token(tenant: Tenant, ttl_seconds: int | None = None) -> str:
    """A signed access token for one tenant."""
    token = AccessToken()
    token[TENANT_CLAIM] = str(tenant.id)
    if ttl_seconds is not None:
        token.set_exp(lifetime=timedelta(seconds=ttl_seconds))
    else:
        token.set_exp(lifetime=settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"])
    return str(token)
