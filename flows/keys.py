"""Which flow a job's call goes through: its task's flow_key, or, for a tenant with
per-host flows, its URL's host (and port, when the URL names one)."""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlsplit

from flows.models import KEY_PATTERN

HOST_PREFIX = "host:"
_KEY = re.compile(KEY_PATTERN)


def flow_key_of(flow_key: str | None, url: str, per_host: bool) -> str | None:
    if flow_key:
        return flow_key
    if not per_host:
        return None
    return host_key(url)


def host_key(url: str) -> str:
    """`host:` and the host (lower case, with `:port` when given). A host the key's
    characters cannot spell (an IPv6 literal) or too long for it is named by its digest."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    name = f"{HOST_PREFIX}{host}" + (f":{port}" if port is not None else "")
    if _KEY.match(name):
        return name
    return HOST_PREFIX + hashlib.sha256(name.encode()).hexdigest()[:40]
