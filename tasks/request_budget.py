"""Requests per second, per tenant, for every route of the tenant API (reads, edits and
creations alike): one shared token bucket (tasks/token_bucket.py), a 429 with Retry-After
when it is empty. Creations also take the creation rate; this bounds everything else."""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle


def check_request_budget(tenant: object) -> None:
    """Take one request of `tenant`'s budget, or raise the 429 (anyone else: no budget)."""
    from tasks.models import Tenant

    rate, burst = settings.TENANT_REQUEST_RATE, settings.TENANT_REQUEST_BURST
    if not isinstance(tenant, Tenant) or not rate:
        return
    from scheduler_site.errors import RateLimited
    from tasks.token_bucket import take_tokens

    wait = take_tokens(f"request-rate:{tenant.id}", rate, max(burst, 1), 1)
    if wait > 0:
        raise RateLimited(
            f"more than {rate} requests per second (bursts of {burst})", retry_after=wait
        )


class TenantRequestBudget(BaseThrottle):
    """DRF throttle that raises the project's own 429, so the error has the one shape.
    The imports above are made on first use: DRF loads this class while scheduler_site.errors
    (which this needs) is still importing rest_framework.views."""

    def allow_request(self, request: Request, view: object) -> bool:
        check_request_budget(request.user)
        return True
