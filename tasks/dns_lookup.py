"""The look-up of one host name, by the system resolver or by the DNS servers configured in
RESOLVER_NAMESERVERS (tasks/nameserver_lookup.py). Either answers as socket.getaddrinfo
does (SOCK_STREAM entries).

The system resolver cannot be interrupted: a lookup it never answers holds its thread for
the system's own timeouts. The configured servers are asked under the request's deadline,
so such a lookup ends, and frees its thread, on time.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from django.conf import settings

# name, port, the monotonic deadline -> getaddrinfo-shaped answers
Lookup = Callable[[str, int, float], list[tuple[Any, ...]]]


def system_lookup(name: str, port: int, deadline: float) -> list[tuple[Any, ...]]:
    return socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)


def configured_lookup() -> Lookup:
    """RESOLVER_NAMESERVERS' servers, else the system resolver. dnspython is imported only
    then: it adds a quarter of a second to a worker's first request."""
    servers = tuple(settings.RESOLVER_NAMESERVERS)
    if not servers:
        return system_lookup
    from tasks.nameserver_lookup import nameserver_lookup

    return nameserver_lookup(servers)
