"""`scheduler_flow_calls_started_total{tenant,flow}`: the calls of each flow this executor
started. Labelled by tenant id and flow key, and only for flows the flows table holds, at
most MAX_NAMED_FLOWS of them per process: the calls of flows met past that cap are counted
under `tenant="other", flow="other"` (a tenant making 100,000 flows makes one more series,
not 100,000). The names come from a small cache the executor's database round fills (never
the event loop); a flow deleted loses its series when the cache is next refreshed.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterable

from django.db import DatabaseError
from prometheus_client import Counter

from flows.models import Flow
from scheduler_site.sqltools import uuid_text

log = logging.getLogger(__name__)

CALLS_STARTED = Counter(
    "scheduler_flow_calls_started_total",
    "Calls of a flow this process started (flows that exist only).",
    ["tenant", "flow"],
)
MAX_NAMED_FLOWS = 1000
OTHER = ("other", "other")  # a tenant label is a UUID: never taken for a real flow's
REFRESH_SECONDS = 60.0  # how long a flow's name is trusted before the table is read again


class FlowNames:
    """flow id -> (tenant id, key), for the flows of the jobs this executor claimed."""

    def __init__(self) -> None:
        self._names: dict[int, tuple[str, str]] = {}
        self._named = 0  # entries of _names with a series of their own (not OTHER)
        self._read_at = time.monotonic()
        self._lock = threading.Lock()  # filled by the round's thread, read by the loop's

    def learn(self, flow_ids: Iterable[int | None]) -> None:
        """Read the names of flows not known yet; every REFRESH_SECONDS, all again."""
        wanted = {flow_id for flow_id in flow_ids if flow_id is not None}
        stale = time.monotonic() - self._read_at >= REFRESH_SECONDS
        if stale:
            wanted |= set(self._names)
        missing = wanted if stale else wanted - set(self._names)
        if not missing:
            return
        try:
            rows = Flow.objects.filter(id__in=sorted(missing)).values_list("id", "tenant_id", "key")
            found = {id_: (uuid_text(tenant), key) for id_, tenant, key in rows}
        except DatabaseError:  # a metric's names: never worth failing the claimed round for
            log.warning("flow names not read for the calls-started counter", exc_info=True)
            return
        with self._lock:
            for gone in missing - set(found):
                self._forget(gone)
            for flow_id, names in sorted(found.items()):
                if flow_id not in self._names:  # a flow's tenant and key never change
                    self._name(flow_id, names)
            if stale:
                self._read_at = time.monotonic()

    def _name(self, flow_id: int, names: tuple[str, str]) -> None:
        if self._named >= MAX_NAMED_FLOWS:
            names = OTHER
        else:
            self._named += 1
        self._names[flow_id] = names

    def _forget(self, flow_id: int) -> None:
        names = self._names.pop(flow_id, None)
        if names is not None and names is not OTHER:
            self._named -= 1
        if names is not None and names not in self._names.values():
            with contextlib.suppress(KeyError):  # it never started a call here
                CALLS_STARTED.remove(*names)

    def started(self, flow_id: int | None) -> None:
        """A call of the flow started (a flow not known here is not counted)."""
        if flow_id is None:
            return
        with self._lock:
            names = self._names.get(flow_id)
        if names is not None:
            CALLS_STARTED.labels(*names).inc()


FLOW_NAMES = FlowNames()
