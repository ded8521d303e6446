"""`Authorization: Bearer acs_...` authenticates as the key's tenant; any other bearer value
is left to the JWT authentication that follows this one in the settings.

Each request reads its key's row (one lookup by its unique prefix, no cache), so a revoked
key, an expired one or a stopped tenant's is refused (401) from the next request on.
"""

from __future__ import annotations

from django.utils import timezone
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed

from tasks.models import Tenant
from tenants.api_keys.key_format import looks_like_key, matches, prefix_of
from tenants.api_keys.last_used import note_use
from tenants.models import ApiKey


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request) -> tuple[Tenant, ApiKey] | None:
        parts = get_authorization_header(request).split()
        if len(parts) != 2 or parts[0].lower() != b"bearer":
            return None
        raw = parts[1].decode("latin-1")
        if not looks_like_key(raw):
            return None
        key = authenticated_key(raw)
        return key.tenant, key

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


def authenticated_key(raw: str) -> ApiKey:
    """The live key `raw` is, its use noted; AuthenticationFailed (401) for any other."""
    prefix = prefix_of(raw)
    key = ApiKey.objects.select_related("tenant").filter(prefix=prefix).first() if prefix else None
    # Unknown and wrong secret read alike: the answer says nothing of which prefixes exist.
    if key is None or not matches(raw, key.key_hash):
        raise AuthenticationFailed("unknown API key", code="api_key_unknown")
    now = timezone.now()
    if key.revoked_at is not None:
        raise AuthenticationFailed("the API key was revoked", code="api_key_revoked")
    if key.expires_at is not None and key.expires_at <= now:
        raise AuthenticationFailed("the API key has expired", code="api_key_expired")
    if not key.tenant.is_active:
        raise AuthenticationFailed("the key's tenant is stopped", code="tenant_stopped")
    note_use(key, now)
    return key
