"""The body of a callback: the job it reports on, as the tenant reads it."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import datetime

from execution.response_body import BODY_LIMIT


@dataclass(slots=True)
class Finished:
    """A job that just succeeded or died, as its callback describes it."""

    job_id: str
    task_id: str
    task_name: str
    scheduled_at: datetime
    status: str
    attempts: int
    http_status: int | None
    error: str | None
    duration_ms: int | None
    finished_at: datetime | None
    # The start of the last reply: its bytes when the executor still has them, else the text
    # the job kept.
    response: bytes | str | None


def _instant(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def response_fields(response: bytes | str | None) -> dict:
    """The reply's first BODY_LIMIT bytes: text when they are UTF-8, else base64."""
    if response is None:
        return {"response_body": None, "response_body_encoding": None}
    raw = response if isinstance(response, bytes) else response.encode()
    text = _utf8(raw[:BODY_LIMIT])
    if text is not None:
        return {"response_body": text, "response_body_encoding": "text"}
    encoded = base64.b64encode(raw[:BODY_LIMIT]).decode()
    return {"response_body": encoded, "response_body_encoding": "base64"}


def _utf8(raw: bytes) -> str | None:
    """The bytes as text, or None when they are no UTF-8. A cut at the limit may fall inside
    a character: its first bytes (at most 3) are dropped, the text is still text."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.reason != "unexpected end of data" or len(raw) - error.start > 3:
            return None
        return raw[: error.start].decode("utf-8")


def body(event: str, job: Finished, extra: dict | None = None) -> str:
    """The JSON body of one callback of `event` (success, failure, alert)."""
    document = {
        "type": f"job.{job.status}",
        "event": event,
        "job_id": job.job_id,
        "task_id": job.task_id,
        "task_name": job.task_name,
        "scheduled_at": _instant(job.scheduled_at),
        "finished_at": _instant(job.finished_at),
        "status": job.status,
        "attempts": job.attempts,
        "http_status": job.http_status,
        "error": job.error,
        "duration_ms": job.duration_ms,
        **response_fields(job.response),
        **(extra or {}),
    }
    return json.dumps(document, separators=(",", ":"))
