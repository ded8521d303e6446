"""GET /readyz: whether this API process can serve requests now.

200 when the database and the configured history store both answer a real read, else 503
naming which one did not. /healthz stays a liveness check that touches neither, so a load
balancer can take an instance out of rotation without a supervisor restarting it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse

from history.records import HistoryUnavailable
from history.stores import history_store

logger = logging.getLogger("scheduler_site.readiness")
NOBODY = uuid.UUID(int=0)


def database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def history_answers() -> None:
    # A read through the store's own interface: it also proves the table or keyspace exists.
    history_store().get(tenant_id=NOBODY, job_id=NOBODY)


CHECKS: dict[str, Callable[[], None]] = {"database": database_answers, "history": history_answers}


def _check(name: str, probe: Callable[[], None]) -> str:
    try:
        probe()
    except (DatabaseError, HistoryUnavailable) as exc:
        logger.warning("readiness: %s does not answer (%s)", name, exc)
        if name == "database":
            connection.close()  # the next request reconnects instead of reusing a dead link
        return "unavailable"
    return "ok"


def readiness(request: HttpRequest) -> JsonResponse:
    checks = {name: _check(name, probe) for name, probe in CHECKS.items()}
    ready = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ready" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )
