"""One HTTP session to the API: the bearer, JSON in and out, errors as ApiError, and the
cursor pages followed through their `next` links."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from datetime import date, datetime
from typing import Any

import requests

from atcron import __version__
from atcron.errors import ApiError, TransportError

DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 2
# A 429 or 503 is a request the API did not carry out: sent again after its Retry-After,
# unless that is longer than this (then the caller hears of it at once).
MAX_RETRY_WAIT = 60.0


class Response:
    def __init__(self, status: int, body: Any, headers: Mapping[str, str]) -> None:
        self.status = status
        self.body = body
        self.headers = headers

    @property
    def version(self) -> int | None:
        """The object's version from its `ETag: "<version>"`."""
        tag = self.headers.get("ETag", "").removeprefix("W/").strip('"')
        return int(tag) if tag.isdigit() else None


class Transport:
    def __init__(
        self,
        url: str,
        key: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retries: int = DEFAULT_RETRIES,
    ) -> None:
        self.base = url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {key}"
        self.session.headers["User-Agent"] = f"atcron-python/{__version__}"
        self.session.headers["Accept"] = "application/json"

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        for tries_left in range(self.retries, -1, -1):
            try:
                return self._once(method, path, json_body, params, headers)
            except ApiError as exc:
                wait = _retry_wait(exc)
                if not tries_left or wait is None:
                    raise
                time.sleep(wait)
        raise AssertionError("unreachable")

    def _once(
        self,
        method: str,
        path: str,
        json_body: Any,
        params: dict[str, Any] | None,
        headers: dict[str, str] | None,
    ) -> Response:
        url = path if path.startswith("http") else f"{self.base}{path}"
        data = None if json_body is None else encode_json(json_body)
        sent = dict(headers or {})
        if data is not None:
            sent["Content-Type"] = "application/json"
        try:
            answer = self.session.request(
                method, url, data=data, params=_params(params), headers=sent, timeout=self.timeout
            )
        except requests.RequestException as exc:
            raise TransportError(f"{method} {url}: {exc}") from exc
        return _checked(method, url, answer)

    def pages(self, path: str, params: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        """Every item of a paginated list, fetching the next page only when reached."""
        answer = self.request("GET", path, params=params)
        while True:
            yield from answer.body["results"]
            if not answer.body.get("next"):
                return
            answer = self.request("GET", answer.body["next"])


def encode_json(value: Any) -> bytes:
    """JSON where instants and dates (as YAML loads them) are written in ISO 8601."""
    return json.dumps(value, default=_iso).encode()


def _iso(value: Any) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def _params(params: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Query parameters without the unset ones; a list value repeats its name."""
    pairs = []
    for name, value in (params or {}).items():
        for item in value if isinstance(value, list | tuple) else [value]:
            if item is not None:
                pairs.append((name, str(item)))
    return pairs


def _retry_wait(error: ApiError) -> float | None:
    if error.status not in (429, 503):
        return None
    raw = {name.lower(): value for name, value in error.headers.items()}.get("retry-after", "")
    if not raw.isdigit() or float(raw) > MAX_RETRY_WAIT:
        return None
    return float(raw)


def _checked(method: str, url: str, answer: requests.Response) -> Response:
    body: Any = None
    if answer.content:
        try:
            body = answer.json()
        except ValueError:
            body = answer.text
    headers = answer.headers  # case-insensitive
    if answer.status_code >= 400:
        raise ApiError(answer.status_code, body, dict(headers))
    if answer.content and not isinstance(body, dict):
        raise TransportError(f"{method} {url}: the answer is not JSON: {answer.text[:200]!r}")
    return Response(answer.status_code, body, headers)
