"""Task creations per second, per tenant: a token bucket shared by every API worker
(tasks/token_bucket.py). A creation is charged before any of its work is done, so refused
ones count too; what the quota refuses, and replays, are given back."""

from __future__ import annotations

from scheduler_site.errors import RateLimited, ValidationFailed
from tasks.models import Tenant
from tasks.quotas import quota
from tasks.token_bucket import take_tokens


def _bucket(tenant: Tenant) -> tuple[str, int, int]:
    rate, burst = quota(tenant, "create_rate"), quota(tenant, "create_burst")
    return f"create-rate:{tenant.id}", rate, max(burst, 1)


def take_creation_token(tenant: Tenant, count: int = 1) -> None:
    """Take `count` creations from the tenant's bucket at once, or refuse them all with 429
    and Retry-After (a batch larger than the burst is refused as such, with a 400)."""
    key, rate, burst = _bucket(tenant)
    if not rate or count <= 0:
        return
    if count > burst:
        raise ValidationFailed(
            f"at most {burst} task creations at once for this tenant",
            fields={"tasks": f"at most {burst} items for this tenant"},
        )
    wait = take_tokens(key, rate, burst, count)
    if wait > 0:
        raise RateLimited(
            f"more than {rate} task creations per second (bursts of {burst})", retry_after=wait
        )


def give_back_creation_tokens(tenant: Tenant, count: int) -> None:
    """Return creations that were charged but made nothing new (a replay, the quota)."""
    key, rate, burst = _bucket(tenant)
    if rate and count > 0:
        take_tokens(key, rate, burst, -count)
