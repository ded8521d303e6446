"""HTTP delivery of one attempt: the request, its deadline, and what it came back with.

pyreqwest clients (Rust's reqwest: about a third of aiohttp's CPU per call here), pinned
to checked addresses (execution.pinned_clients): no proxy (the environment is not read), no
redirects, dial-time address checks (execution.egress), a total deadline of the job's
timeout that also covers a body trickling in slowly, and bodies read and inflated within a
bound (execution.response_body).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import aiohttp
from pyreqwest.exceptions import ConnectError, PyreqwestError, ReadError
from pyreqwest.http import Url

from execution.egress import is_refusal
from execution.metrics import CONNECTION_ERROR, TIMEOUT, count_call, status_class
from execution.pinned_clients import PinnedClients
from execution.response_body import ACCEPT_ENCODING, read_body_start
from execution.signing import signature_headers
from jobs.queue import ClaimedJob
from tasks.address_policy import EgressPolicy
from tasks.secret_hosts import host_allowed, url_host

logger = logging.getLogger("execution.delivery")

USER_AGENT = "at-cron-scheduler/1.0"
ERROR_LIMIT = 500
REFUSED = "destination not allowed"
SECRET_HOST_REFUSED = "secret_ref {name!r} may not be sent to {host!r} (not in its allowed_hosts)"


@dataclass(slots=True)
class CallOutcome:
    succeeded: bool
    http_status: int | None
    error: str | None
    response_body: str | None
    duration_ms: int
    retry_after: float | None = None
    # When the attempt started. An attempt that failed before sending (its secret is missing)
    # has one too: it counts, and its log says why. None: no attempt at all.
    started_at: datetime | None = None
    # The reply's start as it came (response_body is its text): a callback reports it.
    response_raw: bytes | None = None
    # The destination itself failed (no connection, a timeout, a 5xx): what a flow's
    # circuit breaker counts; False: it answered (a 4xx too); None: it was never reached
    # (refused here by the address policy, or the secret).
    destination_failed: bool | None = None


def scheduled_at_header(moment: datetime) -> str:
    """RFC 3339 in UTC with milliseconds, e.g. 2026-01-01T09:00:00.000Z."""
    m = moment.astimezone(UTC)
    return (
        f"{m.year:04d}-{m.month:02d}-{m.day:02d}T{m.hour:02d}:{m.minute:02d}:{m.second:02d}"
        f".{m.microsecond // 1000:03d}Z"
    )


def request_headers(job: ClaimedJob, *, authorization: str | None, sent_at: datetime) -> dict:
    headers = dict(job.headers)
    if not any(name.lower() == "accept-encoding" for name in headers):
        headers["Accept-Encoding"] = ACCEPT_ENCODING  # what execution.response_body decodes
    if job.body and not any(name.lower() == "content-type" for name in headers):
        headers["Content-Type"] = _content_type(job.body)
    headers.update(
        {
            "Idempotency-Key": job.id,
            "X-Scheduled-At": scheduled_at_header(job.scheduled_at),
            "X-Attempt": str(job.attempt),
            "User-Agent": USER_AGENT,
        }
    )
    headers.update(
        signature_headers(
            secrets=[job.signing_secret, *filter(None, [job.previous_signing_secret])],
            message_id=job.id,
            sent_at=sent_at,
            body=job.body,
        )
    )
    if authorization is not None:
        headers["Authorization"] = authorization
    return headers


def _content_type(body: str) -> str:
    try:
        json.loads(body)
    except ValueError:
        return "text/plain; charset=utf-8"
    return "application/json"


def parse_retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())


class Delivery:
    """Makes the calls of one executor process."""

    def __init__(
        self,
        *,
        policy: EgressPolicy,
        concurrency: int,
        resolver: aiohttp.abc.AbstractResolver | None = None,
    ) -> None:
        self.policy = policy
        self.concurrency = concurrency
        self.resolver = resolver
        self.clients = PinnedClients(policy=policy, concurrency=concurrency, resolver=resolver)

    async def start(self) -> None:
        self.clients.start()

    async def close(self) -> None:
        await self.clients.close()

    async def call(
        self,
        job: ClaimedJob,
        *,
        authorization: str | None = None,
        secret_hosts: frozenset[str] = frozenset(),
    ) -> CallOutcome:
        """One attempt; a secret goes only to a host of its allowed_hosts (an empty set
        allows none), otherwise nothing is sent and the attempt fails saying why."""
        if authorization is not None and not host_allowed(job.url, secret_hosts):
            error = SECRET_HOST_REFUSED.format(name=job.secret_ref, host=url_host(job.url))
            outcome = _failed(time.monotonic(), datetime.now(UTC), error)
        else:
            outcome = await self._call(job, authorization)
        log_attempt(job, outcome)
        return outcome

    async def _call(self, job: ClaimedJob, authorization: str | None) -> CallOutcome:
        started, sent_at = time.monotonic(), datetime.now(UTC)
        headers = request_headers(job, authorization=authorization, sent_at=sent_at)
        try:
            async with asyncio.timeout(job.timeout_seconds):
                status, raw, retry_after = await self._send(job, headers)
        except TimeoutError:
            count_call(job.tenant_id, TIMEOUT, time.monotonic() - started)
            error = f"timed out after {job.timeout_seconds}s"
            return _failed(started, sent_at, error, destination_failed=True)
        except (PyreqwestError, OSError, ValueError) as exc:
            if is_refusal(exc):  # refused here: no call left this process
                return _failed(started, sent_at, REFUSED)
            count_call(job.tenant_id, CONNECTION_ERROR, time.monotonic() - started)
            return _failed(started, sent_at, _describe(exc), destination_failed=True)
        count_call(job.tenant_id, status_class(status), time.monotonic() - started)
        return CallOutcome(
            succeeded=200 <= status < 300,
            http_status=status,
            error=None if 200 <= status < 300 else f"HTTP {status}",
            response_body=_text(raw),
            duration_ms=_elapsed_ms(started),
            retry_after=retry_after,
            started_at=sent_at,
            response_raw=raw if job.calls_back else None,
            destination_failed=status >= 500,
        )

    async def _send(self, job: ClaimedJob, headers: dict) -> tuple[int, bytes, float | None]:
        url = http_url(job.url)
        client = await self.clients.client_for(url)
        request = client.request(job.method, url).headers(headers)
        if job.body:
            request = request.body_bytes(job.body.encode())
        async with request.build_streamed() as response:
            encoding = response.get_header("Content-Encoding")
            body = await read_body_start(response.body_reader.read, encoding)
            retry_after = None
            if response.status in (429, 503):
                retry_after = parse_retry_after(response.get_header("Retry-After"))
            return response.status, body, retry_after


def http_url(text: str) -> Url:
    """The URL as the client parses it; only http and https are ever called."""
    url = Url(text)
    if url.scheme not in ("http", "https") or not url.host_str:
        raise ValueError(f"not an http(s) URL: {text[:100]}")
    return url


def job_log_fields(job: ClaimedJob) -> dict:
    """The `extra=` of a log call about one attempt of a job (LOG_FORMAT=json shows them)."""
    return {"tenant": job.tenant_id, "task": job.task_id, "job": job.id, "attempt": job.attempt}


def log_attempt(job: ClaimedJob, outcome: CallOutcome) -> None:
    """A failed attempt at INFO; a success only at DEBUG (one line per call is a lot)."""
    level = logging.DEBUG if outcome.succeeded else logging.INFO
    if not logger.isEnabledFor(level):
        return
    fields = job_log_fields(job)
    fields.update(http_status=outcome.http_status, duration_ms=outcome.duration_ms)
    what = "succeeded" if outcome.succeeded else f"failed: {outcome.error}"
    logger.log(level, "job %s attempt %d %s", job.id, job.attempt, what, extra=fields)


def _text(body: bytes) -> str:
    # NUL cannot be stored the same way by every backend (SQLite's JSON reads stop at it).
    return body.decode("utf-8", errors="replace").replace("\x00", "\ufffd")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ConnectError):
        return f"connection failed: {_cause(exc)}"[:ERROR_LIMIT]
    if isinstance(exc, ReadError) and "closed" in _cause(exc):
        return "server disconnected"
    if isinstance(exc, OSError):  # the name did not resolve
        return f"connection failed: {exc.strerror or exc}"[:ERROR_LIMIT]
    text = _cause(exc) if isinstance(exc, PyreqwestError) else str(exc)
    return f"request failed: {text or type(exc).__name__}"[:ERROR_LIMIT]


def _cause(exc: PyreqwestError) -> str:
    """The innermost cause reqwest gives (e.g. "Connection refused (os error 111)")."""
    causes = (getattr(exc, "details", None) or {}).get("causes") or []
    return causes[-1]["message"] if causes else str(exc.args[0] if exc.args else exc)


def _failed(
    started: float, sent_at: datetime, error: str, *, destination_failed: bool | None = None
) -> CallOutcome:
    return CallOutcome(
        False,
        None,
        error,
        None,
        _elapsed_ms(started),
        started_at=sent_at,
        destination_failed=destination_failed,
    )


def _elapsed_ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
