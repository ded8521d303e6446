"""Look-ups that ask the DNS servers of RESOLVER_NAMESERVERS (dnspython) for A and AAAA
records, each ended at the request's deadline."""

from __future__ import annotations

import functools
import socket
import time
from typing import Any

import dns.exception
import dns.nameserver
import dns.resolver

from scheduler_site.env import nameserver_address
from tasks.address_policy import ResolutionTimedOut
from tasks.dns_lookup import Lookup

_FAMILIES = (("A", socket.AF_INET), ("AAAA", socket.AF_INET6))


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
