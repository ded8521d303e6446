"""The rules a task's target and options must follow (each failure names its field)."""

import re
from collections.abc import Iterable, Iterator
from urllib.parse import urlsplit

from django.conf import settings

from scheduler_site.errors import ValidationFailed
from tasks.address_policy import (
    DestinationNotAllowed,
    ResolutionTimedOut,
    Resolver,
    default_policy,
    name_to_resolve,
)

ALLOWED_SCHEMES = {"http": 80, "https": 443}
# Matched whole (fullmatch): `$` would also accept a name ending in a newline.
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}")
SECRET_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")
# A header value may hold tabs but no other control character (CR and LF split headers).
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
MAX_HEADERS = 50
MAX_HEADER_VALUE = 4096

# Credentials belong in a secret_ref; hop-by-hop headers are the connection's business;
# the rest are set by the executor on every call.
FORBIDDEN_HEADERS = frozenset(
    name.lower()
    for name in (
        "Authorization",
        "Proxy-Authorization",
        "Cookie",
        "Set-Cookie",
        "Connection",
        "Keep-Alive",
        "Proxy-Authenticate",
        "Proxy-Connection",
        "TE",
        "Trailer",
        "Transfer-Encoding",
        "Upgrade",
        "Host",
        "Content-Length",
        "Idempotency-Key",
        "X-Scheduled-At",
        "X-Attempt",
        "User-Agent",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
    )
)

LIMITS = {
    "priority": (0, 9),
    "timeout_seconds": (1, 900),
    "max_attempts": (1, 50),
    "backoff_base_seconds": (1, 86400),
}


def names_to_resolve(urls: Iterable[object]) -> Iterator[tuple[str, int]]:
    """The (name, port) that `check_url` will resolve for each of `urls`, where it will."""
    for url in urls:
        try:
            parts = urlsplit(url) if isinstance(url, str) else None
            port = parts.port if parts else None
        except ValueError:
            continue
        if parts and parts.scheme in ALLOWED_SCHEMES and parts.hostname:
            name = name_to_resolve(parts.hostname)
            if name is not None:
                yield name, port if port is not None else ALLOWED_SCHEMES[parts.scheme]


def check_url(url: str, resolve: Resolver, field: str = "url") -> str:
    """Refuse a URL the executor must never call; return it unchanged when it is fine.
    `resolve` looks its host name up (HostLookups.resolve: under the request's deadline);
    `field` is the one a refusal names (a callback URL follows the same policy)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise _bad(field, "is not a valid URL") from exc
    if parts.scheme not in ALLOWED_SCHEMES:
        raise _bad(field, "must use http or https")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        hint = "; use secret_ref" if field == "url" else ""
        raise _bad(field, f"must not carry credentials{hint}")
    if not parts.hostname:
        raise _bad(field, "has no host")
    if any(ch.isspace() for ch in url):
        raise _bad(field, "must not contain whitespace")
    effective_port = port if port is not None else ALLOWED_SCHEMES[parts.scheme]
    try:
        default_policy().check_url_host(parts.hostname, effective_port, resolve=resolve)
    except ResolutionTimedOut as exc:
        seconds = settings.RESOLVE_DEADLINE_SECONDS
        raise _bad(field, f"host could not be resolved in time ({seconds:g} s)") from exc
    except DestinationNotAllowed as exc:
        raise _bad(
            field, "is not an allowed destination (public hosts on ports 80/443 only)"
        ) from exc
    return url


def check_headers(headers: object) -> dict[str, str]:
    if not isinstance(headers, dict):
        raise _bad("headers", "must be an object of header names to string values")
    if len(headers) > MAX_HEADERS:
        raise _bad("headers", f"at most {MAX_HEADERS} headers")
    for name, value in headers.items():
        if not isinstance(name, str) or not HEADER_NAME.fullmatch(name):
            raise _bad("headers", f"{name!r} is not a valid header name")
        if name.lower() in FORBIDDEN_HEADERS:
            raise _bad("headers", f"{name} is not allowed (credentials go in secret_ref)")
        if not isinstance(value, str):
            raise _bad("headers", f"the value of {name} must be a string")
        if len(value) > MAX_HEADER_VALUE or CONTROL_CHARACTERS.search(value):
            raise _bad("headers", f"the value of {name} is too long or holds a control character")
    total = sum(len(name) + len(value) for name, value in headers.items())
    if total > settings.TASK_HEADERS_MAX_BYTES:
        raise _bad("headers", f"must be at most {settings.TASK_HEADERS_MAX_BYTES} bytes in all")
    return headers


def check_body(body: str) -> str:
    limit = settings.TASK_BODY_MAX_BYTES
    if len(body.encode("utf-8")) > limit:
        raise _bad("body", f"must be at most {limit} bytes")
    return body


def check_limits(values: dict) -> None:
    for field, (low, high) in LIMITS.items():
        value = values.get(field)
        if value is not None and not low <= value <= high:
            raise _bad(field, f"must be between {low} and {high}")


def check_secret_ref(secret_ref: str | None) -> str | None:
    if secret_ref is not None and not SECRET_NAME.fullmatch(secret_ref):
        raise _bad("secret_ref", "must be a secret name: letters, digits, '_', '.', '-'")
    return secret_ref


def _bad(field: str, message: str) -> ValidationFailed:
    return ValidationFailed(f"{field} {message}", fields={field: message})
