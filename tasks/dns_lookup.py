"""The look-up of one host name, by the system resolver or by the DNS servers configured in
RESOLVER_NAMESERVERS. Either answers as socket.getaddrinfo does (SOCK_STREAM entries).

The system resolver cannot be interrupted: a lookup it never answers holds its thread for
the system's own timeouts. The configured servers are asked with dnspython under the
request's deadline, so such a lookup ends, and frees its thread, on time.
"""

from __future__ import annotations

import functools
import socket
import time
from collections.abc import Callable
from typing import Any

import dns.exception
import dns.nameserver
import dns.resolver

from scheduler_site.env import nameserver_address
from tasks.address_policy import ResolutionTimedOut

# name, port, the monotonic deadline -> getaddrinfo-shaped answers
Lookup = Callable[[str, int, float], list[tuple[Any, ...]]]
_FAMILIES = (("A", socket.AF_INET), ("AAAA", socket.AF_INET6))


def system_lookup(name: str, port: int, deadline: float) -> list[tuple[Any, ...]]:
    return socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)


def _nameserver(entry: str) -> dns.nameserver.Do53Nameserver:
    return dns.nameserver.Do53Nameserver(*nameserver_address(entry))


@functools.lru_cache(maxsize=4)
def _resolver(servers: tuple[str, ...]) -> dns.resolver.Resolver:
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers = [_nameserver(entry) for entry in servers]
    return resolver


def _answers(resolver: dns.resolver.Resolver, name: str, rdtype: str, deadline: float) -> list:
    left = deadline - time.monotonic()
    if left <= 0:
        raise ResolutionTimedOut("no time left for the lookup")
    try:
        return list(resolver.resolve(name, rdtype, lifetime=left, raise_on_no_answer=False))
    except dns.exception.Timeout as exc:
        raise ResolutionTimedOut(f"no answer for {name} within the deadline") from exc
    except dns.exception.DNSException as exc:  # NXDOMAIN, no server answered well, ...
        raise socket.gaierror(socket.EAI_NONAME, f"{name} does not resolve") from exc


def nameserver_lookup(servers: tuple[str, ...]) -> Lookup:
    """A lookup that asks `servers` (ip or ip:port) for A and AAAA records."""
    resolver = _resolver(servers)

    def lookup(name: str, port: int, deadline: float) -> list[tuple[Any, ...]]:
        found = []
        for rdtype, family in _FAMILIES:
            for record in _answers(resolver, name, rdtype, deadline):
                sockaddr = (
                    (record.address, port)
                    if family == socket.AF_INET
                    else (record.address, port, 0, 0)
                )
                found.append((family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
        return found

    return lookup


def configured_lookup() -> Lookup:
    """RESOLVER_NAMESERVERS' servers, else the system resolver."""
    from django.conf import settings

    servers = tuple(settings.RESOLVER_NAMESERVERS)
    return nameserver_lookup(servers) if servers else system_lookup
