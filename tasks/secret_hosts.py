"""Where a secret may be sent: the hosts a secret names, and a URL's host compared with them.

A host is a lowercase DNS name or an IP literal, matched exactly: no wildcards, no suffix
matching, so `api.example.com` does not admit `evil.api.example.com`. The same comparison
runs when a task names the secret (create, batch, PATCH) and in the executor just before
a call (execution/delivery.py), where a host not listed means the call is not made.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from ipaddress import ip_address
from urllib.parse import urlsplit

from scheduler_site.errors import ValidationFailed

MAX_ALLOWED_HOSTS = 20
DNS_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")


def checked_allowed_hosts(hosts: object) -> list[str]:
    """The hosts as stored (IP literals in canonical form, duplicates dropped), or a 400."""
    if not isinstance(hosts, list) or not hosts or len(hosts) > MAX_ALLOWED_HOSTS:
        raise _bad(f"must be a list of 1 to {MAX_ALLOWED_HOSTS} host names")
    kept: list[str] = []
    for host in hosts:
        normal = _checked_host(host)
        if normal not in kept:
            kept.append(normal)
    return kept


def _checked_host(host: object) -> str:
    if not isinstance(host, str):
        raise _bad("each host must be a string")
    if "*" in host:
        raise _bad(f"{host!r}: wildcards are not supported, name each host")
    literal = _ip_literal(host)
    if literal is not None:
        return literal
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    # A last label of digits only is no top-level domain: "7" or "1.2.3" is a mistyped address.
    numeric = labels[-1].isdigit()
    if len(name) > 253 or numeric or not all(DNS_LABEL.fullmatch(label) for label in labels):
        raise _bad(f"{host!r} is not a lowercase DNS name or an IP address")
    return name


def _ip_literal(host: str) -> str | None:
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        return str(ip_address(bare))
    except ValueError:
        return None


def url_host(url: str) -> str | None:
    """The host a call to `url` goes to, spelled as allowed_hosts spell it."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host[:-1] if host.endswith(".") else host
    literal = _ip_literal(host)
    if literal is not None:
        return literal
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host


def host_allowed(url: str, allowed_hosts: Iterable[str]) -> bool:
    host = url_host(url)
    return host is not None and host in set(allowed_hosts)


def _bad(message: str) -> ValidationFailed:
    return ValidationFailed(f"allowed_hosts {message}", fields={"allowed_hosts": message})


def check_secret_destination(
    secret_ref: str | None, url: str, hosts_by_name: dict[str, list[str]]
) -> None:
    """A 400 on `secret_ref` unless the secret exists and may be sent to the URL's host;
    `hosts_by_name` holds the allowed hosts of the tenant's secrets the request names."""
    if secret_ref is None:
        return
    if secret_ref not in hosts_by_name:
        message = f"{secret_ref!r} names no secret of this tenant"
        raise ValidationFailed(f"secret_ref {message}", fields={"secret_ref": message})
    if not host_allowed(url, hosts_by_name[secret_ref]):
        host = url_host(url)
        message = f"the secret {secret_ref!r} may not go to {host!r}: not in its allowed_hosts"
        raise ValidationFailed(f"secret_ref: {message}", fields={"secret_ref": message})
