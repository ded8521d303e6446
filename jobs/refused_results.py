"""A result the database refuses is that result's fault, not an outage.

When a batch fails because of what one result holds (too large for a statement, a value
its column refuses), the batch is written again in halves until the refused result stands
alone; that one is written without what it carried, its error saying why. Only a lost
connection is waited out (execution.runtime): taken for one, a refused batch was sent again
forever and stopped every tenant's results and claims on that executor.
"""

from __future__ import annotations

import dataclasses
import logging

from django.db import DatabaseError, DataError, IntegrityError, connection

from jobs.queue import JobResult, record_results
from jobs.result_limits import ERROR_CHARS
from jobs.statement_size import ResultsTooLarge

logger = logging.getLogger("jobs.refused_results")

PACKET_TOO_LARGE = {1153, 1301}
# Values a column refuses: out of range, truncated, wrong value or date, too long, a CHECK.
REFUSED_VALUE = {1264, 1265, 1292, 1366, 1406, 3819, 4025}
NOT_STORED = "the result could not be stored ({reason}); its response body was dropped"
SMALLINT_MAX, INT_MAX = 32767, 2**31 - 1


def refusal_reason(exc: BaseException) -> str | None:
    """Why the database refused a batch for what it holds; None for anything else."""
    if isinstance(exc, ResultsTooLarge):
        return f"too large: {exc}"
    if not isinstance(exc, DatabaseError):
        return None
    code = exc.args[0] if exc.args and isinstance(exc.args[0], int) else None
    check = isinstance(exc, IntegrityError) and "CHECK constraint failed" in str(exc)  # SQLite
    if isinstance(exc, DataError) or check or code in PACKET_TOO_LARGE | REFUSED_VALUE:
        return f"refused by the database: {exc}"[:200]
    return None


def record_apart(
    *, worker_id: str, results: list[JobResult], refused_for: str | None = None
) -> tuple[int, int]:
    """Write `results`, halving the batch around each refused one, which is written as an
    error instead. `refused_for`: why the database already refused this very batch (it is
    not sent again whole). Returns (rows written, results refused)."""
    reason = refused_for
    if reason is None:
        try:
            return record_results(worker_id=worker_id, results=results), 0
        except (DatabaseError, ResultsTooLarge) as exc:
            reason = refusal_reason(exc)
            if reason is None:
                raise
            connection.close_if_unusable_or_obsolete()  # a packet too large ends it
    if len(results) == 1:
        return _record_stand_in(worker_id, results[0], reason), 1
    half = len(results) // 2
    first = record_apart(worker_id=worker_id, results=results[:half])
    second = record_apart(worker_id=worker_id, results=results[half:])
    return first[0] + second[0], first[1] + second[1]


def _record_stand_in(worker_id: str, result: JobResult, reason: str) -> int:
    try:
        return record_results(worker_id=worker_id, results=[_stand_in(result, reason)])
    except DatabaseError as exc:
        if refusal_reason(exc) is None:
            raise
    # Refused even bare: left to its lease, which the reconciler settles, rather than
    # stopping this executor's rounds for every tenant.
    logger.error("job %s: not even its bare result could be stored; left to its lease", result.key)
    connection.close_if_unusable_or_obsolete()
    return 0


def _stand_in(result: JobResult, reason: str) -> JobResult:
    """The refused result without what a column could refuse. Its status stays: whether the
    endpoint took the call is known, and calling it again for our storage would be wrong."""
    logger.warning("result of job %s attempt %d not stored: %s", result.key, result.attempt, reason)
    return dataclasses.replace(
        result,
        response_body=None,
        error=NOT_STORED.format(reason=reason)[:ERROR_CHARS],
        http_status=_within(result.http_status, SMALLINT_MAX),
        duration_ms=_within(result.duration_ms, INT_MAX),
    )


def _within(value: int | None, top: int) -> int | None:
    return value if value is not None and 0 <= value <= top else None
