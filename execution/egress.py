"""The connect-time egress check: the address about to be connected to, after DNS.

aiohttp hands every socket it opens to a socket factory together with the exact address
it will connect to, so refusing there checks the address connected to (a DNS answer that
changes between task creation and the call cannot slip through), for names and for IP
literals alike. TLS still verifies, and sends SNI for, the URL's host name.
"""

from __future__ import annotations

import socket

from tasks.address_policy import EgressPolicy


class RefusedDestination(OSError):
    """Raised inside the connector; the tenant only ever sees "destination not allowed"."""


def guarded_socket_factory(policy: EgressPolicy):
    def open_socket(addr_info) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        host, port = sockaddr[0], sockaddr[1]
        if not policy.address_allowed(host, port):
            raise RefusedDestination(f"refused {host} port {port}")
        return socket.socket(family=family, type=type_, proto=proto)

    return open_socket


def is_refusal(exc: BaseException) -> bool:
    """Whether an aiohttp error was caused by a refused destination."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, RefusedDestination):
            return True
        if isinstance(getattr(exc, "os_error", None), RefusedDestination):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
