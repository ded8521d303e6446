"""A callback URL of a tenant's settings: the same destination policy as a task's `url`."""

from __future__ import annotations

from tasks import rules
from tasks.host_lookups import HostLookups


def check_callback_url(field: str, url: str | None, tenant_id: object) -> str | None:
    """The URL unchanged (None clears it); a 400 naming `field` where a task's `url` is one."""
    if url is None:
        return None
    return rules.check_url(url, HostLookups(tenant_id).resolve, field=field)
