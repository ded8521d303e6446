"""The admin's login, throttled: failed logins are counted per username and per client
address in the shared cache, and past a limit within a window the login is refused (even
with the right password) until the window ends. A good login clears its user's count."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest

KEY = "admin-login-failures:{kind}:{digest}"


class ThrottledLoginForm(AdminAuthenticationForm):
    def clean(self):
        username = (self.cleaned_data.get("username") or "").casefold()
        counters = [
            (_key("user", username), settings.ADMIN_LOGIN_FAILURES_PER_USER),
            (
                _key("address", client_address(self.request)),
                settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS,
            ),
        ]
        if any(cache.get(key, 0) >= limit for key, limit in counters):
            minutes = max(1, settings.ADMIN_LOGIN_WINDOW_SECONDS // 60)
            raise ValidationError(
                "Too many failed logins for this account or from this address: logins are "
                f"refused for a while (up to {minutes} minutes). Try again later.",
                code="throttled",
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            for key, _ in counters:
                _count(key)
            raise
        cache.delete(counters[0][0])
        return cleaned


def client_address(request: HttpRequest) -> str:
    """The caller's address: REMOTE_ADDR, or behind PROXY_HOPS proxies that each append
    to X-Forwarded-For, the entry the outermost of them wrote (the ones left of it are
    whatever the client sent)."""
    hops = settings.PROXY_HOPS
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if hops and len(forwarded) >= hops and forwarded[-hops]:
        return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "")


def _key(kind: str, value: str) -> str:
    # Hashed: a username may hold characters a cache key may not.
    return KEY.format(kind=kind, digest=hashlib.sha256(value.encode()).hexdigest()[:32])


def _count(key: str) -> None:
    window = settings.ADMIN_LOGIN_WINDOW_SECONDS
    cache.add(key, 0, timeout=window)  # the window starts at the first failure
    try:
        cache.incr(key)
    except ValueError:  # it expired between the two calls: a new window
        cache.set(key, 1, timeout=window)
