"""The dial-time egress check: the address a call will connect to, after DNS.

The executor resolves a URL's host itself and checks every address it may dial; the HTTP
client is then pinned to the checked address (execution/pinned_clients.py), so it never
looks the name up again: a DNS answer that changes between task creation and the call, or
between the check and the connect, cannot slip through. An IP literal in the URL is checked
as the client itself parsed it (hex, octal and short spellings included). TLS still
verifies, and sends SNI for, the URL's host name.
"""

from __future__ import annotations

from tasks.address_policy import EgressPolicy


class RefusedDestination(OSError):
    """Raised before any connection; the tenant only ever sees "destination not allowed"."""


def first_allowed(policy: EgressPolicy, addresses: list[str], port: int) -> str:
    """The first address the policy lets a call dial on `port`; refused when none."""
    for address in addresses:
        if policy.address_allowed(address, port):
            return address
    raise RefusedDestination(f"refused {', '.join(addresses) or 'no address'} port {port}")


def is_refusal(exc: BaseException) -> bool:
    """Whether an error was caused by a refused destination."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, RefusedDestination):
            return True
        if isinstance(getattr(exc, "os_error", None), RefusedDestination):
            return True
        exc = exc.__cause__ or exc.__context__
    return False
