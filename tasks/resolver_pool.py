"""The threads that resolve task URLs' host names, shared by every tenant of a process, and
each tenant's bounded share of them.

A tenant holds at most RESOLVER_TENANT_THREADS lookups at once, counted from when a lookup
is handed to the pool until its thread is done with it (a system lookup that outlives its
request still counts). Its further lookups wait for its own share, within their request's
deadline, so a tenant whose names never answer delays only itself.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings


class TenantShares:
    """How many of the pool's threads each tenant holds, and a wait for a free place."""

    def __init__(self) -> None:
        self._held: dict[str, int] = {}
        self._changed = threading.Condition()

    def acquire(self, tenant: str, limit: int, timeout: float) -> bool:
        """Take one place of `tenant`'s share, waiting at most `timeout` seconds."""
        with self._changed:
            free = self._changed.wait_for(
                lambda: self._held.get(tenant, 0) < limit, timeout=max(0.0, timeout)
            )
            if free:
                self._held[tenant] = self._held.get(tenant, 0) + 1
            return free

    def release(self, tenant: str) -> None:
        with self._changed:
            left = self._held.get(tenant, 0) - 1
            if left > 0:
                self._held[tenant] = left
            else:
                self._held.pop(tenant, None)
            self._changed.notify_all()

    def held(self, tenant: str) -> int:
        with self._changed:
            return self._held.get(tenant, 0)


SHARES = TenantShares()
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def resolver_pool() -> ThreadPoolExecutor:
    """The process's pool, made on first use (after a fork, in the worker that uses it)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(settings.RESOLVER_THREADS, thread_name_prefix="resolve")
        return _pool
