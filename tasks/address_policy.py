"""Egress policy: which addresses an outgoing webhook call may reach.

One policy is shared by task creation (``EgressPolicy.check_url_host``,
which accepts a URL host that is a name or an IP literal in any spelling)
and the executor (``EgressPolicy.check_address``, for the exact IP about to
be connected to after DNS resolution).

``ipaddress.IPvXAddress.is_global`` is deliberately not used: it treats
multicast as global, leaves CGNAT in limbo and does not look inside
IPv6 forms that carry an IPv4 address.  Instead we keep an explicit table
taken from the IANA IPv4/IPv6 special-purpose address registries and unwrap
embedded IPv4 addresses ourselves.
"""

from __future__ import annotations

import functools
import re
import socket
import unicodedata
from collections.abc import Callable, Iterable
from ipaddress import (
    IPv4Address,
    IPv4Network,
    IPv6Address,
    IPv6Network,
    ip_address,
    ip_network,
)
from typing import Any
from urllib.parse import unquote

IPAddress = IPv4Address | IPv6Address
IPNetwork = IPv4Network | IPv6Network

GENERIC_MESSAGE = "destination not allowed"
PUBLIC_PORTS: frozenset[int] = frozenset({80, 443})


class DestinationNotAllowed(Exception):
    """Refusal of an egress destination; the text never reveals why."""

    def __init__(self, reason: str = "") -> None:
        super().__init__(GENERIC_MESSAGE)
        self.reason = reason  # for logs only, never shown to tenants

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason,))


def _nets(*cidrs: str) -> tuple[IPNetwork, ...]:
    return tuple(ip_network(c) for c in cidrs)


REFUSED_NETWORKS: tuple[IPNetwork, ...] = _nets(
    # IPv4 special-purpose registry (plus multicast and class E).
    "0.0.0.0/8",  # "this network"
    "10.0.0.0/8",  # private
    "100.64.0.0/10",  # shared address space (CGNAT)
    "127.0.0.0/8",  # loopback
    "169.254.0.0/16",  # link local, includes cloud metadata 169.254.169.254
    "172.16.0.0/12",  # private
    "192.0.0.0/24",  # IETF protocol assignments
    "192.0.2.0/24",  # TEST-NET-1
    "192.88.99.0/24",  # deprecated 6to4 relay anycast
    "192.168.0.0/16",  # private
    "198.18.0.0/15",  # benchmarking
    "198.51.100.0/24",  # TEST-NET-2
    "203.0.113.0/24",  # TEST-NET-3
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved, includes limited broadcast 255.255.255.255
    # IPv6 special-purpose registry.
    "::/128",  # unspecified
    "::1/128",  # loopback
    "::/96",  # IPv4-compatible (deprecated)
    "::ffff:0:0/96",  # IPv4-mapped
    "64:ff9b::/96",  # NAT64 well-known prefix
    "64:ff9b:1::/48",  # NAT64 local use
    "100::/64",  # discard only
    "2001::/23",  # IETF protocol assignments, includes Teredo 2001::/32
    "2001:db8::/32",  # documentation
    "2002::/16",  # 6to4: judged by the embedded IPv4 address instead
    "3fff::/20",  # documentation
    "5f00::/16",  # segment routing SIDs
    "fc00::/7",  # unique local
    "fe80::/10",  # link local
    "fec0::/10",  # site local (deprecated)
    "ff00::/8",  # multicast
)

# Table entries whose verdict is delegated to the IPv4 address they carry.
_DELEGATED_V6: tuple[IPv6Network, ...] = (IPv6Network("2002::/16"),)
_GLOBAL_UNICAST_V6 = IPv6Network("2000::/3")
_MAPPED_V6 = IPv6Network("::ffff:0:0/96")
_COMPAT_V6 = IPv6Network("::/96")
_NAT64_V6 = IPv6Network("64:ff9b::/96")

_REFUSED_V4 = tuple(n for n in REFUSED_NETWORKS if n.version == 4)
_REFUSED_V6 = tuple(n for n in REFUSED_NETWORKS if n.version == 6 and n not in _DELEGATED_V6)


def _low32(addr: IPv6Address) -> IPv4Address:
    return IPv4Address(int(addr) & 0xFFFFFFFF)


def embedded_ipv4(addr: IPv6Address) -> IPv4Address | None:
    """Return the IPv4 address carried inside ``addr``, if any."""
    if addr in _MAPPED_V6:
        return _low32(addr)
    if addr in _NAT64_V6:
        return _low32(addr)
    if addr in _COMPAT_V6 and int(addr) > 1:  # not :: or ::1
        return _low32(addr)
    if addr.sixtofour is not None:
        return addr.sixtofour
    if addr.teredo is not None:
        return addr.teredo[1]  # client address (obfuscated bits inverted)
    return None


def _coerce(ip: str | IPAddress) -> IPAddress | None:
    """Canonical address object, or None when ``ip`` is not an address."""
    if isinstance(ip, (IPv4Address, IPv6Address)):
        return ip
    if not isinstance(ip, str):
        raise TypeError(f"expected an IP address, got {type(ip).__name__}")
    text = ip.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return ip_address(text)
    except ValueError:
        return None


def _in_any(addr: IPAddress, networks: Iterable[IPNetwork]) -> bool:
    return any(addr in net for net in networks)


def is_public_address(ip: str | IPAddress) -> bool:
    """True only for a globally routable unicast address (fails closed)."""
    addr = _coerce(ip)
    if addr is None:
        return False
    if isinstance(addr, IPv4Address):
        return not _in_any(addr, _REFUSED_V4)
    if addr.scope_id:
        return False
    if addr not in _GLOBAL_UNICAST_V6 or _in_any(addr, _REFUSED_V6):
        return False
    inner = embedded_ipv4(addr)
    if inner is not None:
        return is_public_address(inner)
    return not _in_any(addr, _DELEGATED_V6)


# --- literal host parsing -------------------------------------------------

_IPV4_HEX = re.compile(r"0x[0-9a-f]*\Z")
_IPV4_OCT = re.compile(r"0[0-7]+\Z")
_IPV4_DEC = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)\Z")
_DOT_LOOKALIKES = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def _normalise_host(host: str) -> str:
    """Fold a host the way URL parsers/IDNA do before interpreting it."""
    text = unicodedata.normalize("NFKC", host.strip()).translate(_DOT_LOOKALIKES)
    return text.lower()


def _ipv4_part(part: str) -> int | None:
    try:
        if _IPV4_HEX.match(part):
            return int(part[2:] or "0", 16)
        if _IPV4_OCT.match(part):
            return int(part, 8)
        if _IPV4_DEC.match(part):
            return int(part)
    except ValueError:  # absurdly long digit strings
        return None
    return None


def _parse_ipv4_loose(text: str) -> IPv4Address | None:
    """inet_aton()/WHATWG style IPv4: 1-4 parts, decimal, octal or hex."""
    if text.endswith("."):
        text = text[:-1]
    parts = text.split(".")
    if not text or len(parts) > 4:
        return None
    values = [_ipv4_part(p) for p in parts]
    if any(v is None for v in values):
        return None
    *head, last = values
    if any(v > 0xFF for v in head) or last >= 256 ** (5 - len(parts)):
        return None
    number = last
    for index, value in enumerate(head):
        number += value << (8 * (3 - index))
    return IPv4Address(number)


def parse_literal_host(host: str) -> IPAddress | None:
    """The IP address ``host`` spells, in any accepted notation, else None."""
    text = _normalise_host(host)
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
        if ":" not in text:
            return None
    if ":" in text:
        try:
            return IPv6Address(text)
        except ValueError:
            return None
    if "%" in text:
        text = unquote(text)
    if not text.isascii():
        return None
    return _parse_ipv4_loose(text)


def _looks_malformed(name: str) -> bool:
    """A host that is neither a valid literal nor plausibly a DNS name."""
    if any(ch in name for ch in "[]:%/\\@") or any(ch.isspace() for ch in name):
        return True
    last_label = name.removesuffix(".").rsplit(".", 1)[-1]
    return bool(_NUMERIC_LABEL.match(last_label))  # TLDs are never numeric


def _is_localhost_name(name: str) -> bool:
    bare = name.removesuffix(".")
    return bare == "localhost" or bare.endswith(".localhost")


# --- policy ---------------------------------------------------------------

Resolver = Callable[..., list[tuple[Any, ...]]]
_LOOPBACKS = (IPv4Address("127.0.0.1"), IPv6Address("::1"))


class EgressPolicy:
    """Allow list of CIDRs plus the public-address rule for ports 80/443."""

    parse_literal_host = staticmethod(parse_literal_host)

    def __init__(self, allow: Iterable[IPNetwork] = ()) -> None:
        self.allow: tuple[IPNetwork, ...] = tuple(allow)

    @classmethod
    def from_setting(cls, value: str | None) -> EgressPolicy:
        """Build from a comma separated CIDR list such as ``EGRESS_ALLOW``."""
        networks = []
        for entry in (value or "").split(","):
            entry = entry.strip()
            if not entry:
                continue
            try:
                networks.append(ip_network(entry))
            except ValueError as exc:
                raise ValueError(f"invalid EGRESS_ALLOW entry {entry!r}: {exc}") from exc
        return cls(networks)

    def __repr__(self) -> str:
        return f"EgressPolicy(allow={[str(n) for n in self.allow]!r})"

    def _allow_listed(self, addr: IPAddress) -> bool:
        candidates: list[IPAddress] = [addr]
        if isinstance(addr, IPv6Address):
            if addr.scope_id:
                candidates[0] = IPv6Address(int(addr))
            if addr.ipv4_mapped is not None:
                candidates.append(addr.ipv4_mapped)
        return any(_in_any(c, self.allow) for c in candidates)

    def address_allowed(self, ip: str | IPAddress, port: int) -> bool:
        """May a connection go to ``ip`` on ``port``?"""
        addr = _coerce(ip)
        if addr is None or not _valid_port(port):
            return False
        if self._allow_listed(addr):
            return True
        return port in PUBLIC_PORTS and is_public_address(addr)

    def check_address(self, ip: str | IPAddress, port: int) -> None:
        """Raise DestinationNotAllowed unless ``address_allowed``."""
        if not self.address_allowed(ip, port):
            raise DestinationNotAllowed(f"address {ip!s} port {port!r} refused")

    def check_url_host(self, host: str, port: int, resolve: Resolver = socket.getaddrinfo) -> None:
        """Validate a URL host (literal or name) at task creation time."""
        literal = parse_literal_host(host)
        if literal is not None:
            self.check_address(literal, port)
            return
        name = name_to_resolve(host)
        if name is None:
            raise DestinationNotAllowed(f"malformed host {host!r}")
        if _is_localhost_name(name) and not any(map(self._allow_listed, _LOOPBACKS)):
            raise DestinationNotAllowed(f"localhost name {host!r}")
        for addr in _resolve_all(name, port, resolve):
            self.check_address(addr, port)


def name_to_resolve(host: str) -> str | None:
    """The DNS name `check_url_host` asks for, or None when `host` is a literal or malformed
    (so a request can start its lookups before checking its URLs)."""
    if parse_literal_host(host) is not None:
        return None
    name = _normalise_host(host)
    return None if not name or _looks_malformed(name) else name


def _valid_port(port: object) -> bool:
    return isinstance(port, int) and not isinstance(port, bool) and 0 < port < 65536


class ResolutionTimedOut(Exception):
    """A name did not resolve within the time given (not an OSError: never "does not resolve")."""


def _resolve_all(name: str, port: int, resolve: Resolver) -> list[IPAddress]:
    """Every A/AAAA answer for ``name``; refuses when there are none."""
    try:
        answers = resolve(name, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise DestinationNotAllowed("does not resolve") from exc
    addresses: list[IPAddress] = []
    for family, _type, _proto, _canon, sockaddr in answers:
        if family not in (socket.AF_INET, socket.AF_INET6):
            raise DestinationNotAllowed(f"unexpected address family {family!r}")
        addr = _coerce(sockaddr[0])
        if addr is None:
            raise DestinationNotAllowed(f"unparsable answer {sockaddr[0]!r}")
        scope = sockaddr[3] if family == socket.AF_INET6 and len(sockaddr) > 3 else 0
        if scope and isinstance(addr, IPv6Address) and not addr.scope_id:
            addr = IPv6Address(f"{addr}%{scope}")
        addresses.append(addr)
    if not addresses:
        raise DestinationNotAllowed("does not resolve")
    return addresses


# --- settings-backed default ------------------------------------------------


@functools.lru_cache(maxsize=16)
def _policy_for(setting: str) -> EgressPolicy:
    return EgressPolicy.from_setting(setting)


def default_policy() -> EgressPolicy:
    """Policy from ``settings.EGRESS_ALLOW``, cached per setting value."""
    from django.conf import settings

    return _policy_for(getattr(settings, "EGRESS_ALLOW", "") or "")


def reset_default_policy() -> None:
    """Drop cached policies (tests)."""
    _policy_for.cache_clear()
