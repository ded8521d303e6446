"""The tenant comes from the token's `tenant_id` claim and from nowhere else.

A token is refused (401) when its tenant is unknown or deactivated, when it was issued
before the tenant's tokens were revoked, or when it claims to live longer than
JWT_MAX_TTL_SECONDS from now; a token whose times are out of range is refused, not a 500.
The tenant's row is read at most once a second per process (tasks/tenant_cache.py): a stop
or a revocation made elsewhere refuses the tenant's tokens within a second.
"""

import time
import uuid
from datetime import timedelta

from django.conf import settings
from rest_framework_simplejwt.authentication import JWTAuthentication
from rest_framework_simplejwt.exceptions import AuthenticationFailed, InvalidToken
from rest_framework_simplejwt.tokens import AccessToken, Token

from tasks import verified_tokens
from tasks.models import Tenant
from tasks.tenant_cache import cached_tenant

TENANT_CLAIM = "tenant_id"
CLOCK_SLACK_SECONDS = 5


class TokenLifetimeRefused(ValueError):
    """A token was asked for with a lifetime outside 1 s .. JWT_MAX_TTL_SECONDS."""


class TenantJWTAuthentication(JWTAuthentication):
    """Authenticates a request as a Tenant."""

    def get_validated_token(self, raw_token: bytes) -> Token:
        token = verified_tokens.known(raw_token)
        if token is not None:
            return token
        try:
            token = super().get_validated_token(raw_token)
        except (OverflowError, ValueError, OSError) as exc:  # a time no datetime can hold
            raise InvalidToken("the token's times are out of range") from exc
        expires = token.get("exp")
        if (
            not isinstance(expires, int)
            or expires - time.time() > max_lifetime() + CLOCK_SLACK_SECONDS
        ):
            raise InvalidToken("the token lives longer than tokens may")
        verified_tokens.keep(raw_token, token)
        return token

    def get_user(self, validated_token) -> Tenant:
        try:
            tenant_id = uuid.UUID(str(validated_token[TENANT_CLAIM]))
        except (KeyError, ValueError) as exc:
            raise InvalidToken("the token carries no valid tenant_id claim") from exc
        tenant = cached_tenant(tenant_id)  # read at most a second ago
        if tenant is None or not tenant.is_active:
            raise AuthenticationFailed("unknown tenant", code="tenant_not_found")
        if tenant.tokens_not_before is not None:
            issued = validated_token.get("iat")
            if not isinstance(issued, int) or issued < tenant.tokens_not_before.timestamp():
                raise AuthenticationFailed("the token was revoked", code="token_revoked")
        return tenant


def max_lifetime() -> int:
    return settings.JWT_MAX_TTL_SECONDS


def issue_token(tenant: Tenant, ttl_seconds: int | None = None) -> str:
    """A signed access token for one tenant, living `ttl_seconds` (the default lifetime when
    None). Tokens carry whole seconds: right after a revocation this waits for the cut-off
    second (under a second) so that the new token is not refused with the old ones."""
    lifetime = settings.SIMPLE_JWT["ACCESS_TOKEN_LIFETIME"]
    if ttl_seconds is not None:
        lifetime = timedelta(seconds=ttl_seconds)
    if not timedelta(seconds=1) <= lifetime <= timedelta(seconds=max_lifetime()):
        raise TokenLifetimeRefused(f"a token lives from 1 to {max_lifetime()} seconds")
    cut_off = tenant.tokens_not_before
    if cut_off is not None and (wait := cut_off.timestamp() - time.time()) > 0:
        time.sleep(wait)
    token = AccessToken()
    token[TENANT_CLAIM] = str(tenant.id)
    token.set_exp(lifetime=lifetime)
    return str(token)
