"""One request's host name lookups: all started at once, all under one deadline.

A batch hands every distinct name to the resolver pool before its items are checked; each
item's check then waits for its name's answer until the request's deadline, never longer,
and a name that has no answer by then is "not resolved in time" for its items alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from django.conf import settings

from tasks.address_policy import ResolutionTimedOut
from tasks.dns_lookup import configured_lookup
from tasks.resolver_pool import SHARES, resolver_pool


class HostLookups:
    """The lookups of one tenant's request; `resolve` fits EgressPolicy.check_url_host."""

    def __init__(self, tenant_id: object, seconds: float | None = None) -> None:
        self.seconds = settings.RESOLVE_DEADLINE_SECONDS if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds
        self._tenant = str(tenant_id)
        self._lookup = configured_lookup()
        self._answers: dict[str, Future | None] = {}  # None: no place in time to ask
        # URLs this request has found allowed: the same URL in many items of a batch is
        # checked once (the check was a twelfth of a batch's CPU).
        self.allowed_urls: set[str] = set()

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def start(self, names: Iterable[tuple[str, int]]) -> None:
        """Hand each new name to the pool as soon as the tenant's share has a place."""
        limit = settings.RESOLVER_TENANT_THREADS
        for name, port in names:
            if name in self._answers:
                continue
            if not SHARES.acquire(self._tenant, limit, self.remaining()):
                self._answers[name] = None
                continue
            answer = resolver_pool().submit(self._lookup, name, port, self.deadline)
            answer.add_done_callback(lambda _done: SHARES.release(self._tenant))
            self._answers[name] = answer

    def resolve(self, name: str, port: int, **_options: Any) -> list[tuple[Any, ...]]:
        self.start([(name, port)])
        answer = self._answers[name]
        try:
            if answer is None:
                raise FutureTimeout
            return answer.result(timeout=self.remaining())
        except FutureTimeout as exc:
            if answer is not None:
                answer.cancel()  # still queued: it will never be asked
            raise ResolutionTimedOut(f"no answer within {self.seconds:g} s") from exc
