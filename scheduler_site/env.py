"""Reading typed values from the environment: the one place settings come from.

A value that cannot be read stops the process at start with a message naming the
variable (ImproperlyConfigured), never later with a traceback in a request.
"""

import os
from ipaddress import ip_address, ip_network

from django.core.exceptions import ImproperlyConfigured

TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value not in TRUE | FALSE:
        raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")
    return value in TRUE


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}") from exc
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value}")
    return value


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = env_str(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def env_cidrs(name: str) -> str:
    """A comma separated list of networks (e.g. EGRESS_ALLOW), each checked here."""
    for entry in env_list(name):
        try:
            ip_network(entry)
        except ValueError as exc:
            raise ImproperlyConfigured(f"{name}: {entry!r} is not a network ({exc})") from exc
    return env_str(name)


def nameserver_address(entry: str) -> tuple[str, int]:
    """`ip` or `ipv4:port` (an IPv6 address has no port here) as (address, port)."""
    address, port = entry.rsplit(":", 1) if entry.count(":") == 1 else (entry, "53")
    ip_address(address)
    number = int(port)
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is out of range")
    return address, number


def env_nameservers(name: str) -> list[str]:
    """A comma separated list of DNS servers (e.g. RESOLVER_NAMESERVERS), each checked here."""
    entries = env_list(name)
    for entry in entries:
        try:
            nameserver_address(entry)
        except ValueError as exc:
            raise ImproperlyConfigured(f"{name}: {entry!r} is not ip or ip:port ({exc})") from exc
    return entries
