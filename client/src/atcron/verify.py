"""Verifying a call on the receiving side (Standard Webhooks), on the raw body bytes.

The service signs `{webhook-id}.{webhook-timestamp}.{body}` with HMAC-SHA256, keyed with the
base64 bytes after `whsec_`, and sends `v1,<base64 signature>` (two, space separated, while
an old secret still signs after a rotation). Nothing here parses the body: an empty, text,
JSON or binary body verifies alike.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import time
from collections.abc import Iterable, Mapping

from atcron.errors import ConfigError, SignatureError

TOLERANCE_SECONDS = 300
PREFIX = "whsec_"


def verify(
    secret: str | Iterable[str],
    body: bytes,
    headers: Mapping[str, str],
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> None:
    """Return if one of the call's signatures matches one of the secrets and its timestamp
    is within `tolerance` seconds of now; raise SignatureError otherwise."""
    if isinstance(body, str):
        raise TypeError("verify the raw request body (bytes), not decoded text")
    found = {name.lower(): value for name, value in headers.items()}
    message_id = found.get("webhook-id")
    stamp = found.get("webhook-timestamp")
    signatures = found.get("webhook-signature")
    if not (message_id and stamp and signatures):
        raise SignatureError("missing webhook-id, webhook-timestamp or webhook-signature")
    _check_time(stamp, tolerance, time.time() if now is None else now)
    signed = f"{message_id}.{stamp}.".encode() + body
    given = [_decoded(part) for part in signatures.split() if part.startswith("v1,")]
    for key in [secret] if isinstance(secret, str) else secret:
        expected = hmac.new(_key(key), signed, hashlib.sha256).digest()
        if any(hmac.compare_digest(expected, signature) for signature in given):
            return
    raise SignatureError("no signature matches")


def _check_time(stamp: str, tolerance: int, now: float) -> None:
    if not stamp.isascii() or not stamp.isdigit():
        raise SignatureError("webhook-timestamp is not a number of seconds")
    if abs(now - int(stamp)) > tolerance:
        raise SignatureError(f"webhook-timestamp is more than {tolerance} s from now")


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix(PREFIX), validate=True)
    except binascii.Error as exc:
        # A receiver misconfigured, not a forged call: not a SignatureError.
        raise ConfigError("the signing secret is not `whsec_` and base64") from exc


def _decoded(part: str) -> bytes:
    try:
        return base64.b64decode(part[3:], validate=True)
    except binascii.Error:
        return b""  # a malformed signature matches nothing
