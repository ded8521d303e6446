"""GET /readyz: whether this API process can serve requests now.

200 when the database and the configured history store both answer a real read, else 503
naming which one did not. /healthz stays a liveness check that touches neither, so a load
balancer can take an instance out of rotation without a supervisor restarting it.

Probes cost nothing most of the time: the last answer is served for READINESS_CACHE_SECONDS
(its age in the Age header), and a check waits at most CHECK_TIMEOUT_SECONDS for each
dependency (scheduler_site/probes.py), so a hung one never holds the probing request longer.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from history.stores import history_store
from scheduler_site.probes import Probe

CHECK_TIMEOUT_SECONDS = 1.0
NOBODY = uuid.UUID(int=0)


def database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def history_answers() -> None:
    # A read through the store's own interface: it also proves the table or keyspace exists.
    history_store().get(tenant_id=NOBODY, job_id=NOBODY)


PROBES = [Probe("database", database_answers), Probe("history", history_answers)]


@dataclass(frozen=True)
class Answer:
    checks: dict[str, str]
    at: float


_last: Answer | None = None
_lock = threading.Lock()  # one check at a time; probes meanwhile wait for its answer


def _check_all() -> Answer:
    deadline = time.monotonic() + CHECK_TIMEOUT_SECONDS
    running = [(probe, probe.start()) for probe in PROBES]
    checks = {probe.name: probe.outcome(future, deadline) for probe, future in running}
    return Answer(checks, time.monotonic())


def current_answer() -> Answer:
    global _last
    with _lock:
        if _last is None or time.monotonic() - _last.at >= settings.READINESS_CACHE_SECONDS:
            _last = _check_all()
        return _last


def readiness(request: HttpRequest) -> JsonResponse:
    answer = current_answer()
    ready = all(result == "ok" for result in answer.checks.values())
    response = JsonResponse(
        {"status": "ready" if ready else "unavailable", "checks": answer.checks},
        status=200 if ready else 503,
    )
    response["Age"] = str(int(time.monotonic() - answer.at))
    return response
