"""How much of a result is kept, and how many bytes a result adds to a batch.

Applied before a result waits in the executor's outbox, so nothing larger is ever held or
sent: one tenant's endpoint decides its own response body, never the size of a batch.
"""

from __future__ import annotations

import dataclasses
import json

from jobs.queue import JobResult

RESPONSE_BODY_CHARS = 4096  # the first 4 KiB of the body (execution.response_body)
ERROR_CHARS = 500  # the error columns' length


def within_limits(result: JobResult) -> JobResult:
    body, error = result.response_body, result.error
    if _fits(body, RESPONSE_BODY_CHARS) and _fits(error, ERROR_CHARS):
        return result
    return dataclasses.replace(
        result,
        response_body=body[:RESPONSE_BODY_CHARS] if body is not None else None,
        error=error[:ERROR_CHARS] if error is not None else None,
    )


def encoded_size(result: JobResult) -> int:
    """The bytes of its row in a batch's JSON parameter (ASCII: json escapes the rest)."""
    return len(json.dumps(result.as_row())) + 2  # and the ", " that joins it to the next


def _fits(text: str | None, limit: int) -> bool:
    return text is None or len(text) <= limit
