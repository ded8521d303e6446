"""A `read` key may only read: every unsafe method on every route is a 403, decided here
once (a default permission in the settings) rather than in each view. Tokens (JWTs) and
`write` keys may do anything the tenant may.

A view whose POST changes nothing (a computation sent as a body, such as the schedule
preview) says so with `changes_nothing = True`: a read key may call it, as it may a GET.
A view whose GET hands out a credential says `write_scope_only = True`: the signing secret
lets its holder sign calls as this service, more than a read key (a dashboard's) is for."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from tenants.models import ApiKey, ApiKeyScope


class KeyScopeAllows(BasePermission):
    message = "this API key has the scope `read`: a change needs a key of scope `write`"
    code = "insufficient_scope"

    def has_permission(self, request, view) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey) or key.scope == ApiKeyScope.WRITE:
            return True
        if getattr(view, "write_scope_only", False):
            # One instance per request (DRF builds them per request): safe to set.
            self.message = "this API key has the scope `read`: this route needs scope `write`"
            return False
        return request.method in SAFE_METHODS or getattr(view, "changes_nothing", False)
